#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "framework/core/error.hpp"
#include "framework/data/load.hpp"
#include "framework/data/mocap.hpp"

using namespace drbench;

namespace {

const std::string kDir = "tests/fixtures/mocap/";

arma::mat reference_positions(const std::string& file) {
  arma::mat R;
  REQUIRE(R.load(kDir + file, arma::raw_ascii));
  return R.t();  // one frame per column
}

std::string write(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / ("drbench_mocap_" + name);
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace

TEST_CASE("mocap: joint positions equal Lawrence's acclaim2xyz on two CMU skeletons", "[mocap]") {
  for (const auto& [asf, amc] : {std::pair{"35.asf", "35_01"}, std::pair{"49.asf", "49_18"}}) {
    const Skeleton sk = read_asf(kDir + asf);
    REQUIRE(sk.n_joints() == 31);
    const Motion m = read_amc(kDir + std::string(amc) + ".amc", sk);
    const arma::mat ref = reference_positions(std::string(amc) + ".xyz.tsv");
    REQUIRE(m.frames() == ref.n_cols);
    const arma::mat X = mocap_features(sk, m);
    REQUIRE(X.n_rows == 93);
    // The reference was printed with 10 significant digits.
    CHECK(arma::abs(X - ref).max() < 1e-6 * arma::abs(ref).max());
  }
}

TEST_CASE("mocap: bone lengths survive any pose, the root's translation moves everything",
          "[mocap]") {
  const Skeleton sk = read_asf(kDir + "49.asf");
  Motion m = read_amc(kDir + "49_18.amc", sk);
  const arma::mat P = joint_positions(sk, m, 2);
  for (std::size_t b = 0; b < sk.bones.size(); ++b) {
    const arma::uword parent = sk.bones[b].parent < 0 ? 0 : sk.bones[b].parent + 1;
    CHECK(arma::norm(P.col(b + 1) - P.col(parent)) == Approx(sk.bones[b].length).epsilon(1e-12));
  }
  m.root.row(3) += 10.0;  // TX
  const arma::mat Q = joint_positions(sk, m, 2);
  CHECK(arma::abs(Q.row(0) - P.row(0) - 10.0).max() < 1e-9);
  CHECK(arma::abs(Q.rows(1, 2) - P.rows(1, 2)).max() < 1e-9);
}

TEST_CASE("mocap list: sequences, classes in order of appearance, frame steps", "[mocap]") {
  const std::string list = write("list.tsv",
                                 "# label skeleton motion step\n"
                                 "walk\t" +
                                     std::filesystem::absolute(kDir + "35.asf").string() + "\t" +
                                     std::filesystem::absolute(kDir + "35_01.amc").string() +
                                     "\t2\n"
                                     "jump\t" +
                                     std::filesystem::absolute(kDir + "49.asf").string() + "\t" +
                                     std::filesystem::absolute(kDir + "49_18.amc").string() + "\n");
  const Dataset ds = read_mocap_list(list);
  CHECK(ds.n_classes == 2);
  CHECK(ds.n() == 3 + 6);
  CHECK(ds.d() == 93);
  CHECK(ds.y(0) == 0);
  CHECK(ds.y(8) == 1);
  CHECK(ds.sequence(2) == 0);
  CHECK(ds.sequence(3) == 1);
}

TEST_CASE("mocap: damaged files are refused with the file and line", "[mocap]") {
  const Skeleton sk = read_asf(kDir + "49.asf");
  const std::string bad_bone = write("bad.amc", ":DEGREES\n1\nroot 0 0 0 0 0 0\nelbow 1 2\n");
  CHECK_THROWS_WITH(read_amc(bad_bone, sk), Catch::Contains("bad.amc:4") &&
                                                Catch::Contains("'elbow' is not in the skeleton"));
  const std::string short_frame = write("short.amc", ":DEGREES\n1\nroot 0 0 0 0 0 0\n2\n");
  CHECK_THROWS_WITH(read_amc(short_frame, sk), Catch::Contains("has no values for bone"));
  const std::string bad_list = write("bad_list.tsv", "walk only_two_fields\n");
  CHECK_THROWS_AS(read_mocap_list(bad_list), DataError);
  CHECK_THROWS_WITH(read_asf(kDir + "missing.asf"), Catch::Contains("cannot open"));
}

TEST_CASE("mocap: a config's source: mocap loads the list from the data path", "[mocap]") {
  DatasetSpec spec;
  spec.name = "fixture";
  spec.source = "mocap";
  const Dataset ds = load_dataset(spec, {kDir}, 1);
  CHECK(ds.n() == 6 + 3);
  CHECK(ds.n_classes == 2);
  CHECK(ds.sequence.n_elem == 9);
  spec.path = "absent.tsv";
  CHECK_THROWS_WITH(load_dataset(spec, {kDir}, 1),
                    Catch::Contains("absent.tsv") && Catch::Contains("source: mocap"));
}
