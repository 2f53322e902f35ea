#include <catch2/catch.hpp>

#include "framework/core/error.hpp"
#include "framework/data/generators.hpp"
#include "framework/data/load.hpp"

using namespace drbench;

TEST_CASE("Generators: shape, labels, determinism", "[data]") {
  for (const char* g : {"swiss_roll", "s_curve"}) {
    INFO(g);
    const std::map<std::string, ParamValue> p = {{"n", std::int64_t(400)},
                                                 {"classes", std::int64_t(4)}};
    const Dataset a = generate_dataset(g, p, 5);
    REQUIRE(a.d() == 3);
    REQUIRE(a.n() == 400);
    CHECK(a.n_classes == 4);
    CHECK(arma::all(arma::hist(a.y, arma::regspace<arma::uvec>(0, 3)) == 100));
    CHECK(arma::approx_equal(generate_dataset(g, p, 5).X, a.X, "absdiff", 0));
    CHECK(!arma::approx_equal(generate_dataset(g, p, 6).X, a.X, "absdiff", 0));
    validate_dataset(a);
    const arma::mat t = generator_latent(g, p, 5);
    REQUIRE(t.n_rows == 2);
    REQUIRE(t.n_cols == 400);
    // Labels are ordered bins of the manifold coordinate.
    for (arma::uword c = 0; c + 1 < 4; ++c) {
      const arma::vec coord = t.row(0).t();
      const double top = coord(arma::find(a.y == c)).max();
      CHECK(top <= coord(arma::find(a.y == c + 1)).min());
    }
  }
  // Noise-free swiss roll lies on its parametrisation.
  const std::map<std::string, ParamValue> p = {{"n", std::int64_t(50)}};
  const Dataset roll = generate_dataset("swiss_roll", p, 1);
  const arma::mat t = generator_latent("swiss_roll", p, 1);
  CHECK(arma::approx_equal(roll.X.row(0), t.row(0) % arma::cos(t.row(0)), "absdiff", 1e-12));
  CHECK(arma::approx_equal(roll.X.row(1), t.row(1), "absdiff", 1e-12));
  CHECK(t.row(0).min() >= 1.5 * arma::datum::pi);
  CHECK(t.row(0).max() <= 4.5 * arma::datum::pi);

  const Dataset blobs = generate_dataset(
      "gaussian_blobs",
      {{"n", std::int64_t(90)}, {"dim", std::int64_t(4)}, {"classes", std::int64_t(3)}}, 2);
  CHECK(blobs.d() == 4);
  CHECK(arma::all(arma::hist(blobs.y, arma::regspace<arma::uvec>(0, 2)) == 30));
}

TEST_CASE("Generator errors name the key and the valid range", "[data]") {
  CHECK_THROWS_WITH(generate_dataset("moebius_strip", {}, 0), Catch::Contains("swiss_roll"));
  CHECK_THROWS_WITH(generate_dataset("swiss_roll", {{"noise", -1.0}}, 0),
                    Catch::Contains("'noise'") && Catch::Contains("[0, inf)"));
  CHECK_THROWS_WITH(generate_dataset("swiss_roll", {{"width", 1.0}}, 0),
                    Catch::Contains("'width'") && Catch::Contains("classes"));
  CHECK_THROWS_AS(generator_latent("gaussian_blobs", {}, 0), DataError);

  DatasetSpec spec;
  spec.name = "roll";
  spec.source = "generator";
  spec.generator = "swiss_roll";
  spec.generator_params = {{"n", std::int64_t(200)}, {"noise", 0.1}};
  spec.max_points = 100;
  const Dataset ds = load_dataset(spec, {}, 9);
  CHECK(ds.name == "roll");
  CHECK(ds.n() == 100);
  CHECK(arma::all(arma::hist(ds.y, arma::regspace<arma::uvec>(0, 3)) == 25));
}
