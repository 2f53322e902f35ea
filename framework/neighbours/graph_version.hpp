#pragma once
// Which search the graph-based methods' neighbours come from, recorded in every results file
// (root attribute graph_version) so that results of two searches never mix in one file:
// 1 (files from before the attribute): LE, LLE and Isomap up to 2,000 points, the LPP family,
//   KLPP, NPE, LTSA, HLLE, MLLE, LLTSA, MVU, IP, LLC and the locally linear prior ranked by a
//   second brute-force search on the BLAS expansion |a|^2 + |b|^2 - 2a.b, whose rounding orders
//   near and exact ties differently;
// 2: every graph from the one search of neighbour_graph.hpp (distances summed directly, ties to
//   the lower index), whatever the number of points.

namespace drbench {

inline constexpr int kGraphVersion = 2;

}  // namespace drbench
