#pragma once
// Which search the graph-based methods' neighbours come from, recorded in every results file
// (root attribute graph_version) so that results of two searches never mix in one file:
// 1 (files from before the attribute): LE, LLE and Isomap up to 2,000 points, the LPP family,
//   KLPP, NPE, LTSA, HLLE, MLLE, LLTSA, MVU, IP, LLC and the locally linear prior ranked by a
//   second brute-force search on the BLAS expansion |a|^2 + |b|^2 - 2a.b, whose rounding orders
//   near and exact ties differently;
// 2: every exact graph from the one search of neighbour_graph.hpp (distances summed directly,
//   ties to the lower index), whatever the number of points; the approximate (HNSW) graph built
//   one point at a time;
// 3: as 2, with the approximate graph built in batches whose points search the index in parallel
//   (the same graph for any thread count, not version 2's): exact graphs are unchanged, so only
//   the tasks of neighbour_graph: approximate (or auto from 200,000 points) differ from 2.

namespace drbench {

inline constexpr int kGraphVersion = 3;

}  // namespace drbench
