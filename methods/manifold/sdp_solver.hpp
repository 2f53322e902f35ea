#pragma once
// The semidefinite program of maximum variance unfolding and its landmark form (methods/manifold/
// mvu, landmark_mvu): maximise <C, K> over one p x p positive semi-definite K subject to
// constraints a_c' K a_c = b_c (or <= b_c), every constraint matrix of rank one. Distance
// constraints |y_i - y_j|^2 = (e_i - e_j)' K (e_i - e_j) and the centring 1' K 1 = 0 are both of
// that form, and the landmark form's are too (a = Q'(e_i - e_j)). Solved by DSDP 5.8 (Benson &
// Ye, the dual-scaling interior-point method; Debian's libdsdp-dev): the problem above is DSDP's
// primal with objective -C, each inequality given a non-negative slack in DSDP's LP cone, and K
// is DSDP's primal matrix, recovered from the dual iterates after the solve.
#include <armadillo>
#include <cstdint>
#include <string>
#include <vector>

#include "framework/core/params.hpp"
#include "framework/core/trace.hpp"

namespace drbench {

// a' K a (=, or <= with `inequality`) bound, a sparse: entries value[t] at index[t].
struct RankOneConstraint {
  std::vector<int> index;
  std::vector<double> value;
  double bound = 0.0;
  bool inequality = false;
};

struct SdpOptions {
  int max_iterations = 200;
  // DSDP's relative duality-gap test: stop when (primal - dual) / (1 + |primal| + |dual|) is below.
  double gap_tolerance = 1e-7;
};

struct SdpSolution {
  arma::mat K;                      // p x p, symmetric
  double primal = 0.0, dual = 0.0;  // <C, K> and the dual bound, in the maximisation's sign
  int iterations = 0;
  std::string stop;  // DSDP's termination reason, in words
  // max_c |a_c' K a_c - b_c| over the equalities and max(0, a_c' K a_c - b_c) over the
  // inequalities, relative to max(1, max_c |b_c|).
  double max_violation = 0.0;
};

// The SDP above for K of size p, with C = the identity (`C` empty) or the given dense symmetric
// matrix. Each iteration goes to check_task_deadline and, when `trace` is non-null, to the trace
// (primal and dual objective). Throws MethodError naming `who` when DSDP fails or the problem is
// infeasible or unbounded (a disconnected neighbour graph leaves the variance unbounded).
SdpSolution solve_rank_one_sdp(arma::uword p, const arma::mat& C,
                               const std::vector<RankOneConstraint>& constraints,
                               const SdpOptions& opt, Trace* trace, const std::string& who);

// The Schur complement DSDP factors every iteration is m x m for m constraints: its bytes and
// the flops of one solve (about 30 iterations, each an m^3/3 factorisation and m^2 p entries).
double sdp_memory(double p, double m);
double sdp_cost(double p, double m);

// What MVU and landmark MVU share.
// One constraint per undirected edge (i, j) of the symmetric graph G (values: edge lengths):
// (e_i - e_j)' K (e_i - e_j) = |x_i - x_j|^2 / scale, or <= with `inequality`.
std::vector<RankOneConstraint> isometry_constraints(const arma::sp_mat& G, double scale,
                                                    bool inequality);
// The mean squared edge length of G (1 when G has none): the unit the SDP is solved in, so that
// DSDP's tolerances mean the same on data of any scale.
double mean_squared_edge(const arma::sp_mat& G);
// The top `dim` eigenvectors of the Gram matrix K (p x p), scaled by the square roots of their
// eigenvalues (dim x p), signs fixed.
arma::mat top_embedding(const arma::mat& K, arma::uword dim);
// An upper bound on the constraints of a kNN graph's SDP: n k edges, and the centring.
double mvu_constraints(arma::uword n, std::int64_t neighbours);
// `edge_lengths` (choice {kept, at_most}): whether every kNN edge keeps its length (MVU's
// equalities) or only may not grow (landmark MVU's inequalities); `def` is the method's default.
ChoiceKey edge_lengths(const std::string& def);
// `iterations` (100) and `tolerance` (1e-6) of DSDP, as mvu and landmark_mvu declare them.
IntKey dsdp_iterations();
RealKey dsdp_tolerance();
// Above this many points MVU's descriptor advises landmark MVU.
constexpr arma::uword kMvuAdviseLimit = 1000;

}  // namespace drbench
