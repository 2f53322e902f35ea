#include "framework/data/mocap.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "framework/core/error.hpp"

namespace drbench {
namespace {

namespace fs = std::filesystem;

arma::mat33 axis_rotation(int axis, double rad) {
  const double c = std::cos(rad), s = std::sin(rad);
  arma::mat33 R(arma::fill::eye);
  const int a = (axis + 1) % 3, b = (axis + 2) % 3;  // the plane the rotation turns
  R(a, a) = c;
  R(a, b) = -s;
  R(b, a) = s;
  R(b, b) = c;
  return R;
}

// Rotations about the axes listed in `order` (0 = x, 1 = y, 2 = z), the first listed applied
// first, so for column vectors the product is R_last ... R_first.
arma::mat33 ordered_rotation(const std::vector<int>& order, const std::vector<double>& rad) {
  arma::mat33 R(arma::fill::eye);
  for (std::size_t i = 0; i < order.size(); ++i) R = axis_rotation(order[i], rad[i]) * R;
  return R;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "rx" -> 0 ... "tz" -> 5; -1 for anything else (the `l` length channel included).
int channel_code(const std::string& word) {
  static const std::map<std::string, int> codes = {{"rx", 0}, {"ry", 1}, {"rz", 2},
                                                   {"tx", 3}, {"ty", 4}, {"tz", 5}};
  const auto it = codes.find(lower(word));
  return it == codes.end() ? -1 : it->second;
}

std::vector<int> axis_order(const std::string& word) {
  std::vector<int> o;
  for (char c : lower(word)) {
    if (c < 'x' || c > 'z') return {};
    o.push_back(c - 'x');
  }
  return o.size() == 3 ? o : std::vector<int>{};
}

struct LineReader {
  std::ifstream in;
  std::string file;
  int line = 0;
  explicit LineReader(const std::string& f) : in(f), file(f) {
    if (!in) throw DataError(f + ": cannot open (fix: check the path in the mocap list)");
  }
  bool next(std::string& s) {
    while (std::getline(in, s)) {
      ++line;
      if (!s.empty() && s.back() == '\r') s.pop_back();
      const auto p = s.find_first_not_of(" \t");
      if (p == std::string::npos || s[p] == '#') continue;
      return true;
    }
    return false;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw DataError(file + ":" + std::to_string(line) + ": " + what);
  }
};

}  // namespace

int Skeleton::find(const std::string& name) const {
  for (std::size_t i = 0; i < bones.size(); ++i)
    if (bones[i].name == name) return int(i);
  return -1;
}

namespace {

// Three angles about x, y, z in radians, from the file's unit.
std::vector<double> to_radians(double a, double b, double c, bool degrees) {
  const double k = degrees ? arma::datum::pi / 180.0 : 1.0;
  return std::vector<double>{a * k, b * k, c * k};
}

// The root's orientation as read: its channel order, axis order and angles (unit not yet known).
struct AsfRoot {
  std::vector<double> axis_angles = std::vector<double>(3, 0.0);
  std::vector<int> axis = {0, 1, 2};
};

// One line of the :root section.
void read_root_line(const std::string& w, std::istringstream& ls, LineReader& r, Skeleton& sk,
                    AsfRoot& root) {
  if (w == "order") {
    std::string c;
    while (ls >> c) {
      const int code = channel_code(c);
      if (code < 0) r.fail("root order: unknown channel '" + c + "'");
      sk.root_order.push_back(code);
    }
  } else if (w == "axis") {
    std::string o;
    ls >> o;
    root.axis = axis_order(o);
    if (root.axis.empty()) r.fail("root axis: '" + o + "' is not an order of x, y, z");
  } else if (w == "orientation") {
    double a = 0, b = 0, c = 0;
    if (!(ls >> a >> b >> c)) r.fail("root orientation needs three angles");
    root.axis_angles = {a, b, c};
  }
}

// One line of the :bonedata section; `bone` is the bone between begin and end, else nullptr.
void read_bone_line(const std::string& w, std::istringstream& ls, LineReader& r, Skeleton& sk,
                    AsfBone*& bone, bool degrees) {
  if (w == "begin") {
    sk.bones.emplace_back();
    bone = &sk.bones.back();
  } else if (w == "end") {
    if (!bone || bone->name.empty()) r.fail("a bone without a name");
    bone = nullptr;
  } else if (!bone) {
    r.fail("'" + w + "' outside a begin/end block");
  } else if (w == "name") {
    ls >> bone->name;
  } else if (w == "direction") {
    double a = 0, b = 0, c = 0;
    if (!(ls >> a >> b >> c)) r.fail("direction needs three numbers");
    bone->direction = {a, b, c};
    const double nrm = arma::norm(bone->direction);
    if (nrm > 0) bone->direction /= nrm;
  } else if (w == "length") {
    if (!(ls >> bone->length) || bone->length < 0) r.fail("length must be >= 0");
  } else if (w == "axis") {
    double a = 0, b = 0, c = 0;
    std::string o;
    if (!(ls >> a >> b >> c >> o)) r.fail("axis needs three angles and an order such as XYZ");
    const std::vector<int> order = axis_order(o);
    if (order.empty()) r.fail("axis order '" + o + "' is not an order of x, y, z");
    const std::vector<double> rad = to_radians(a, b, c, degrees);
    // The angles are given about x, y, z; `order` says in which order they apply.
    std::vector<double> in_order;
    for (int ax : order) in_order.push_back(rad[ax]);
    bone->C = ordered_rotation(order, in_order);
  } else if (w == "dof") {
    std::string c;
    while (ls >> c) {
      const int code = channel_code(c);
      if (code < 0) r.fail("dof: channel '" + c + "' is not supported (rx ry rz tx ty tz)");
      bone->dof.push_back(code);
    }
  }
}

// Each bone's parent from the :hierarchy lines; every bone needs one, listed before it.
void place_bones(const std::vector<std::pair<std::string, std::vector<std::string>>>& hierarchy,
                 LineReader& r, Skeleton& sk) {
  std::vector<bool> placed(sk.bones.size(), false);
  for (const auto& [parent, children] : hierarchy) {
    const int p = parent == "root" ? -1 : sk.find(parent);
    if (parent != "root" && p < 0) r.fail("hierarchy: unknown bone '" + parent + "'");
    for (const auto& c : children) {
      const int i = sk.find(c);
      if (i < 0) r.fail("hierarchy: unknown bone '" + c + "'");
      sk.bones[i].parent = p;
      placed[i] = true;
    }
  }
  for (std::size_t i = 0; i < sk.bones.size(); ++i)
    if (!placed[i]) r.fail("hierarchy: bone '" + sk.bones[i].name + "' has no parent");
  // Forward kinematics walks the bones in file order: every parent must come first.
  for (std::size_t i = 0; i < sk.bones.size(); ++i)
    if (sk.bones[i].parent >= int(i))
      r.fail("hierarchy: bone '" + sk.bones[i].name + "' is listed before its parent '" +
             sk.bones[sk.bones[i].parent].name + "' in :bonedata");
}

}  // namespace

Skeleton read_asf(const std::string& file) {
  LineReader r(file);
  Skeleton sk;
  sk.file = file;
  bool degrees = true;
  std::string section, s;
  std::vector<std::pair<std::string, std::vector<std::string>>> hierarchy;
  AsfBone* bone = nullptr;
  AsfRoot root;
  while (r.next(s)) {
    std::istringstream ls(s);
    std::string w;
    ls >> w;
    if (w[0] == ':') {
      section = w;  // sections other than these four are skipped line by line
      continue;
    }
    if (section == ":units") {
      std::string unit;
      if (w == "angle") {
        ls >> unit;
        degrees = lower(unit) != "rad";
      }
    } else if (section == ":root") {
      read_root_line(w, ls, r, sk, root);
    } else if (section == ":bonedata") {
      read_bone_line(w, ls, r, sk, bone, degrees);
    } else if (section == ":hierarchy") {
      if (w == "begin" || w == "end") continue;
      std::vector<std::string> children;
      std::string c;
      while (ls >> c) children.push_back(c);
      hierarchy.emplace_back(w, children);
    }
  }
  if (sk.bones.empty()) r.fail("no :bonedata bones");
  if (sk.root_order.empty()) sk.root_order = {3, 4, 5, 0, 1, 2};
  // The root's angles in the unit the whole file declares (:units may come after :root).
  const std::vector<double> rad =
      to_radians(root.axis_angles[0], root.axis_angles[1], root.axis_angles[2], degrees);
  std::vector<double> in_order;
  for (int ax : root.axis) in_order.push_back(rad[ax]);
  sk.root_C = ordered_rotation(root.axis, in_order);
  place_bones(hierarchy, r, sk);
  sk.degrees = degrees;
  return sk;
}

Motion read_amc(const std::string& file, const Skeleton& sk) {
  LineReader r(file);
  bool degrees = sk.degrees;
  Motion m;
  m.file = file;
  std::vector<std::vector<double>> root;
  std::vector<std::vector<std::vector<double>>> bone(sk.bones.size());
  std::vector<int> seen;
  std::string s;
  long frame = -1;
  auto close_frame = [&] {
    if (frame < 0) return;
    for (std::size_t b = 0; b < sk.bones.size(); ++b)
      if (!sk.bones[b].dof.empty() && bone[b].size() != root.size())
        r.fail("frame " + std::to_string(frame) + " has no values for bone '" + sk.bones[b].name +
               "'");
  };
  while (r.next(s)) {
    std::istringstream ls(s);
    std::string w;
    ls >> w;
    if (w[0] == ':') {
      if (lower(w) == ":degrees") degrees = true;
      if (lower(w) == ":radians") degrees = false;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(w[0]))) {
      close_frame();
      frame = std::stol(w);
      root.emplace_back();
      continue;
    }
    if (frame < 0) r.fail("channel values before the first frame number");
    std::vector<double> v;
    double x = 0;
    while (ls >> x) v.push_back(x);
    const double k = degrees ? arma::datum::pi / 180.0 : 1.0;
    if (w == "root") {
      if (v.size() != sk.root_order.size())
        r.fail("root has " + std::to_string(v.size()) + " values, the skeleton's order " +
               std::to_string(sk.root_order.size()));
      std::vector<double> ordered(6, 0.0);
      for (std::size_t i = 0; i < v.size(); ++i)
        ordered[sk.root_order[i]] = sk.root_order[i] < 3 ? v[i] * k : v[i];
      root.back() = ordered;
      continue;
    }
    const int b = sk.find(w);
    if (b < 0) r.fail("bone '" + w + "' is not in the skeleton " + sk.file);
    if (v.size() != sk.bones[b].dof.size())
      r.fail("bone '" + w + "' has " + std::to_string(v.size()) + " values for " +
             std::to_string(sk.bones[b].dof.size()) + " degrees of freedom");
    for (std::size_t i = 0; i < v.size(); ++i)
      if (sk.bones[b].dof[i] < 3) v[i] *= k;
    if (bone[b].size() + 1 != root.size()) r.fail("bone '" + w + "' twice in one frame");
    bone[b].push_back(v);
  }
  close_frame();
  if (root.empty()) r.fail("no frames");
  m.root.set_size(6, root.size());
  for (std::size_t f = 0; f < root.size(); ++f) {
    if (root[f].empty())
      throw DataError(file + ": frame " + std::to_string(f + 1) + " has no root");
    for (int c = 0; c < 6; ++c) m.root(c, f) = root[f][c];
  }
  m.bone.resize(sk.bones.size());
  for (std::size_t b = 0; b < sk.bones.size(); ++b) {
    m.bone[b].set_size(sk.bones[b].dof.size(), root.size());
    for (std::size_t f = 0; f < bone[b].size(); ++f)
      for (std::size_t c = 0; c < bone[b][f].size(); ++c) m.bone[b](c, f) = bone[b][f][c];
  }
  return m;
}

arma::mat joint_positions(const Skeleton& sk, const Motion& m, arma::uword f) {
  arma::mat P(3, sk.n_joints());
  std::vector<arma::mat33> W(sk.bones.size());
  const arma::vec3 root_pos = m.root.col(f).subvec(3, 5);
  // The root's rotation channels apply in the order the skeleton lists them.
  std::vector<int> rorder;
  std::vector<double> rval;
  for (int c : sk.root_order)
    if (c < 3) {
      rorder.push_back(c);
      rval.push_back(m.root(c, f));
    }
  const arma::mat33 root_W = sk.root_C * ordered_rotation(rorder, rval) * sk.root_C.t();
  P.col(0) = root_pos;
  for (std::size_t b = 0; b < sk.bones.size(); ++b) {
    const AsfBone& bn = sk.bones[b];
    std::vector<int> order;
    std::vector<double> val;
    for (std::size_t c = 0; c < bn.dof.size(); ++c)
      if (bn.dof[c] < 3) {
        order.push_back(bn.dof[c]);
        val.push_back(m.bone[b](c, f));
      }
    const arma::mat33& parent_W = bn.parent < 0 ? root_W : W[bn.parent];
    W[b] = parent_W * bn.C * ordered_rotation(order, val) * bn.C.t();
    const arma::vec3 start = bn.parent < 0 ? root_pos : arma::vec3(P.col(bn.parent + 1));
    P.col(b + 1) = start + W[b] * (bn.direction * bn.length);
  }
  return P;
}

arma::mat mocap_features(const Skeleton& sk, const Motion& m, arma::uword step, arma::uword first,
                         arma::uword last) {
  if (step == 0) throw DataError(m.file + ": frame step must be >= 1");
  last = std::min(last, m.frames());
  if (first >= last) throw DataError(m.file + ": no frames in the requested range");
  const arma::uword n = (last - first + step - 1) / step;
  arma::mat X(3 * sk.n_joints(), n);
  for (arma::uword i = 0; i < n; ++i)
    X.col(i) = arma::vectorise(joint_positions(sk, m, first + i * step));
  return X;
}

Dataset read_mocap_list(const std::string& list_file) {
  LineReader r(list_file);
  const fs::path base = fs::path(list_file).parent_path();
  std::map<std::string, arma::uword> classes;
  std::map<std::string, Skeleton> skeletons;
  std::vector<arma::mat> parts;
  std::vector<arma::uword> labels, seq;
  std::string s;
  arma::uword n_seq = 0;
  while (r.next(s)) {
    std::istringstream ls(s);
    std::string label, asf, amc;
    arma::uword step = 1;
    if (!(ls >> label >> asf >> amc))
      r.fail("a line needs: label, skeleton .asf, motion .amc [, frame step]");
    if (std::string extra; ls >> extra) {
      try {
        const long v = std::stol(extra);
        if (v < 1) throw std::invalid_argument("");
        step = arma::uword(v);
      } catch (const std::exception&) {
        r.fail("frame step '" + extra + "' must be an integer >= 1");
      }
    }
    const std::string asf_path = (base / asf).string(), amc_path = (base / amc).string();
    auto it = skeletons.find(asf_path);
    if (it == skeletons.end()) it = skeletons.emplace(asf_path, read_asf(asf_path)).first;
    const Skeleton& sk = it->second;
    if (!skeletons.empty() && sk.n_joints() != skeletons.begin()->second.n_joints())
      r.fail("skeleton " + asf + " has " + std::to_string(sk.n_joints()) +
             " joints, the first skeleton " + std::to_string(skeletons.begin()->second.n_joints()));
    const Motion m = read_amc(amc_path, sk);
    parts.push_back(mocap_features(sk, m, step));
    const arma::uword c = classes.emplace(label, classes.size()).first->second;
    for (arma::uword i = 0; i < parts.back().n_cols; ++i) {
      labels.push_back(c);
      seq.push_back(n_seq);
    }
    ++n_seq;
  }
  if (parts.empty()) r.fail("no sequences listed");
  Dataset ds;
  arma::uword n = 0;
  for (const auto& p : parts) n += p.n_cols;
  ds.X.set_size(parts[0].n_rows, n);
  arma::uword c = 0;
  for (const auto& p : parts) {
    ds.X.cols(c, c + p.n_cols - 1) = p;
    c += p.n_cols;
  }
  ds.y = arma::uvec(labels);
  ds.sequence = arma::uvec(seq);
  ds.n_classes = classes.size();
  ds.source = list_file;
  return ds;
}

}  // namespace drbench
