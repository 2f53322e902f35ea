#pragma once
// CMU motion capture in the Acclaim format (ASF skeleton, AMC motion) and the feature pipeline of
// Lawrence's motion-capture work that the GPLRF paper uses for its CMU experiments (Fig. 2(b),
// Fig. 4): every frame becomes the 3-D positions of the root and of the end of every bone,
// 31 joints x 3 = 93 features for the CMU skeleton, by forward kinematics.
//
// Kinematics, column vectors, angles in degrees as the files store them:
// - a bone's `axis` angles (a_x, a_y, a_z, applied in the stated order, XYZ for CMU) give the
//   rotation C of its local frame relative to the world at rest;
// - a frame's values for the bone's `dof` (rx, ry, rz in the listed order) give a rotation M about
//   the local axes, applied in that order;
// - the bone's world rotation is W = W_parent C M C^-1 (the root's: C_root M_root C_root^-1 with
//   the root's `orientation` as C_root), and the bone's end is start + W (direction x length),
//   where `direction` is the unit vector of the bone at rest in world coordinates and start is
//   the end of the parent (the root's position, from its TX TY TZ, for its children).
// Positions are in the files' own length units (`:units length` is not applied), as Lawrence's
// acclaim2xyz gives them; tests/fixtures/mocap holds his toolbox's output for two sequences.
#include <armadillo>
#include <string>
#include <vector>

#include "framework/data/dataset.hpp"

namespace drbench {

struct AsfBone {
  std::string name;
  arma::vec3 direction{arma::fill::zeros};  // unit vector at rest, world coordinates
  double length = 0;
  arma::mat33 C{arma::fill::eye};  // local frame at rest (from `axis`)
  std::vector<int> dof;            // 0 = rx, 1 = ry, 2 = rz, 3..5 = tx, ty, tz, in file order
  int parent = -1;                 // index into Skeleton::bones, -1 for the root's children
};

struct Skeleton {
  std::string file;
  bool degrees = true;  // `:units angle`: how the AMC files of this skeleton give angles
  arma::mat33 root_C{arma::fill::eye};
  std::vector<int> root_order;  // the root's channel order (TX TY TZ RX RY RZ for CMU)
  std::vector<AsfBone> bones;   // in file order; a parent always comes before its children
  int find(const std::string& name) const;  // -1 when absent
  arma::uword n_joints() const { return bones.size() + 1; }
};

// Parses an ASF file. Throws DataError naming the file, the line and what is wrong.
Skeleton read_asf(const std::string& file);

// One AMC file: frames x channels as the file lists them, mapped onto the skeleton's bones.
struct Motion {
  std::string file;
  arma::mat root;               // 6 x frames in root_order
  std::vector<arma::mat> bone;  // per bone: dof.size() x frames (empty when no dof)
  arma::uword frames() const { return root.n_cols; }
};

// Parses an AMC file against `sk` (every bone with degrees of freedom must appear in every frame;
// bones the skeleton does not have are an error). Throws DataError naming the file and line.
Motion read_amc(const std::string& file, const Skeleton& sk);

// 3 x n_joints positions of frame f: the root first, then the end of each bone in file order.
arma::mat joint_positions(const Skeleton& sk, const Motion& m, arma::uword f);

// The 93-D (3 x joints) features of every `step`-th frame of [first, last) as columns: x, y, z of
// the root, then of each bone end.
arma::mat mocap_features(const Skeleton& sk, const Motion& m, arma::uword step = 1,
                         arma::uword first = 0, arma::uword last = arma::uword(-1));

// A dataset from a list file (TSV, '#' comments): one line per sequence,
//   label <TAB> skeleton.asf <TAB> motion.amc [<TAB> step]
// paths relative to the list file. Classes are numbered in the order labels first appear; each
// line is one time-ordered sequence (Dataset::sequence), so the dynamics methods can use them.
Dataset read_mocap_list(const std::string& list_file);

}  // namespace drbench
