#include "methods/manifold/sdp_solver.hpp"

#include <dsdp/dsdp5.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <memory>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench {

namespace {

// What the per-iteration monitor needs: DSDP calls it from inside its C loop, so a deadline
// exception is parked here and rethrown once DSDPSolve has returned (never thrown through C).
struct MonitorState {
  Trace* trace = nullptr;
  int max_iterations = 0;
  std::chrono::steady_clock::time_point t0;
  std::exception_ptr stopped;
};

int monitor(DSDP dsdp, void* ctx) {
  auto* st = static_cast<MonitorState*>(ctx);
  int it = 0;
  double ppobj = 0.0, ddobj = 0.0;
  DSDPGetIts(dsdp, &it);
  DSDPGetPPObjective(dsdp, &ppobj);
  DSDPGetDDObjective(dsdp, &ddobj);
  // DSDP minimises -<C, K>: the maximisation's objective is -ppobj (its bound -ddobj).
  if (st->trace) {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - st->t0).count();
    st->trace->log(it, -ddobj, std::abs(ppobj - ddobj), s);
  }
  try {
    check_task_deadline(it, -ddobj, st->max_iterations);
  } catch (...) {
    // Stop at this iteration as DSDP's own iteration cap would (a non-zero return would end the
    // solve too, but through DSDP's error path, which prints a stack of messages).
    st->stopped = std::current_exception();
    DSDPSetMaxIts(dsdp, it);
  }
  return 0;
}

std::string reason_text(DSDPTerminationReason r) {
  switch (r) {
    case DSDP_CONVERGED:
      return "converged";
    case DSDP_MAX_IT:
      return "iteration limit";
    case DSDP_INFEASIBLE_START:
      return "infeasible start";
    case DSDP_INDEFINITE_SCHUR_MATRIX:
      return "indefinite Schur matrix";
    case DSDP_SMALL_STEPS:
      return "small steps";
    case DSDP_NUMERICAL_ERROR:
      return "numerical error";
    case DSDP_UPPERBOUND:
      return "dual objective reached its bound";
    case DSDP_USER_TERMINATION:
      return "stopped";
    default:
      return "running";
  }
}

// Owns the DSDP solver; DSDP keeps pointers to the data arrays until it is destroyed, so they
// live here too.
struct Problem {
  DSDP dsdp = nullptr;
  std::vector<std::vector<int>> idx;
  std::vector<std::vector<double>> val;
  std::vector<double> objective;  // packed lower triangle of -C
  std::vector<int> lp_begin, lp_row;
  std::vector<double> lp_val;
  ~Problem() {
    if (dsdp) DSDPDestroy(dsdp);
  }
};

void check(int info, const std::string& who, const char* what) {
  if (info != 0)
    throw MethodError(who + ": the SDP solver (DSDP) failed in " + what + " (error " +
                      std::to_string(info) + ")");
}

}  // namespace

SdpSolution solve_rank_one_sdp(arma::uword p, const arma::mat& C,
                               const std::vector<RankOneConstraint>& constraints,
                               const SdpOptions& opt, Trace* trace, const std::string& who) {
  const int m = int(constraints.size());
  const int n = int(p);
  Problem pr;
  check(DSDPCreate(m, &pr.dsdp), who, "DSDPCreate");
  SDPCone cone = nullptr;
  check(DSDPCreateSDPCone(pr.dsdp, 1, &cone), who, "DSDPCreateSDPCone");
  check(SDPConeSetBlockSize(cone, 0, n), who, "SDPConeSetBlockSize");
  if (C.is_empty()) {
    check(SDPConeSetIdentity(cone, 0, 0, n, -1.0), who, "SDPConeSetIdentity");
  } else {
    // DSDP's packed symmetric storage: entry (i, j), i >= j, at i (i + 1) / 2 + j, standing for
    // both (i, j) and (j, i).
    pr.objective.resize(std::size_t(n) * (n + 1) / 2);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j)
        pr.objective[std::size_t(i) * (i + 1) / 2 + j] = 0.5 * (C(i, j) + C(j, i));
    check(
        SDPConeSetADenseVecMat(cone, 0, 0, n, -1.0, pr.objective.data(), int(pr.objective.size())),
        who, "SDPConeSetADenseVecMat");
  }
  pr.idx.resize(m);
  pr.val.resize(m);
  int n_ineq = 0;
  for (int c = 0; c < m; ++c) {
    const RankOneConstraint& rc = constraints[std::size_t(c)];
    pr.idx[c] = rc.index;
    pr.val[c] = rc.value;
    check(SDPConeSetARankOneMat(cone, 0, c + 1, n, 1.0, 0, pr.idx[c].data(), pr.val[c].data(),
                                int(pr.idx[c].size())),
          who, "SDPConeSetARankOneMat");
    check(DSDPSetDualObjective(pr.dsdp, c + 1, rc.bound), who, "DSDPSetDualObjective");
    if (rc.inequality) ++n_ineq;
  }
  if (n_ineq > 0) {
    // One slack s >= 0 per inequality, a_c' K a_c + s = b_c: LP column j has the entry 1 in row
    // c + 1 (DSDP stores the LP data by variable, variable 0 being the objective).
    LPCone lp = nullptr;
    check(DSDPCreateLPCone(pr.dsdp, &lp), who, "DSDPCreateLPCone");
    pr.lp_begin.assign(std::size_t(m) + 2, 0);
    int j = 0;
    for (int c = 0; c < m; ++c) {
      pr.lp_begin[std::size_t(c) + 2] = pr.lp_begin[std::size_t(c) + 1];
      if (!constraints[std::size_t(c)].inequality) continue;
      pr.lp_row.push_back(j++);
      pr.lp_val.push_back(1.0);
      ++pr.lp_begin[std::size_t(c) + 2];
    }
    check(LPConeSetData(lp, n_ineq, pr.lp_begin.data(), pr.lp_row.data(), pr.lp_val.data()), who,
          "LPConeSetData");
  }
  check(DSDPSetGapTolerance(pr.dsdp, opt.gap_tolerance), who, "DSDPSetGapTolerance");
  check(DSDPSetMaxIts(pr.dsdp, opt.max_iterations), who, "DSDPSetMaxIts");
  MonitorState st;
  st.trace = trace;
  st.max_iterations = opt.max_iterations;
  st.t0 = std::chrono::steady_clock::now();
  check(DSDPSetMonitor(pr.dsdp, monitor, &st), who, "DSDPSetMonitor");
  check(DSDPSetup(pr.dsdp), who, "DSDPSetup");
  const int info = DSDPSolve(pr.dsdp);
  if (st.stopped) std::rethrow_exception(st.stopped);  // TimeLimitExceeded or TaskInterrupted
  check(info, who, "DSDPSolve");
  check(DSDPComputeX(pr.dsdp), who, "DSDPComputeX");
  DSDPTerminationReason reason;
  DSDPSolutionType type;
  check(DSDPStopReason(pr.dsdp, &reason), who, "DSDPStopReason");
  check(DSDPGetSolutionType(pr.dsdp, &type), who, "DSDPGetSolutionType");
  if (type == DSDP_PDUNKNOWN && reason != DSDP_MAX_IT)
    throw MethodError(who + ": the SDP solver (DSDP) stopped without a solution (" +
                      reason_text(reason) + ")");
  // DSDP names its own pair: (P), which it minimises, is this maximisation; (D) is its dual.
  if (type == DSDP_INFEASIBLE)
    throw MethodError(who +
                      ": the SDP is unbounded: the neighbour graph is disconnected; raise "
                      "'neighbours' or set 'disconnected: connect'");
  if (type == DSDP_UNBOUNDED)
    throw MethodError(who +
                      ": the SDP is infeasible, the kNN edges cannot all keep their lengths "
                      "exactly (with landmarks they rarely can); set 'edge_lengths: "
                      "at_most'");
  SdpSolution out;
  out.stop = reason_text(reason);
  double* x = nullptr;
  int nn = 0;
  check(SDPConeGetXArray(cone, 0, &x, &nn), who, "SDPConeGetXArray");
  out.K.set_size(p, p);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) out.K(i, j) = out.K(j, i) = x[std::size_t(i) * (i + 1) / 2 + j];
  double pp = 0.0, dd = 0.0;
  DSDPGetPPObjective(pr.dsdp, &pp);
  DSDPGetDDObjective(pr.dsdp, &dd);
  out.primal = -pp;
  out.dual = -dd;
  DSDPGetIts(pr.dsdp, &out.iterations);
  double scale = 1.0, worst = 0.0;
  for (const RankOneConstraint& rc : constraints) {
    scale = std::max(scale, std::abs(rc.bound));
    double v = 0.0;
    for (std::size_t a = 0; a < rc.index.size(); ++a)
      for (std::size_t b = 0; b < rc.index.size(); ++b)
        v += rc.value[a] * rc.value[b] * out.K(arma::uword(rc.index[a]), arma::uword(rc.index[b]));
    worst = std::max(worst, rc.inequality ? v - rc.bound : std::abs(v - rc.bound));
  }
  out.max_violation = worst / scale;
  if (trace) {
    trace->note("sdp_stop", out.stop);
    trace->note("sdp_iterations", std::to_string(out.iterations));
    trace->note("sdp_max_violation", std::to_string(out.max_violation));
  }
  return out;
}

double sdp_memory(double p, double m) {
  // The m x m Schur matrix and its factor, DSDP's dual matrix S, its factor and inverse, X,
  // and the rank-one data (index and value).
  return 8.0 * (m * m + 6.0 * p * p) + 12.0 * m * p;
}

double sdp_cost(double p, double m) {
  return 30.0 * (m * m * m / 3.0 + m * m * 4.0 + p * p * p);
}

std::vector<RankOneConstraint> isometry_constraints(const arma::sp_mat& G, double scale,
                                                    bool inequality) {
  std::vector<RankOneConstraint> out;
  for (auto it = G.begin(); it != G.end(); ++it) {
    if (it.row() >= it.col()) continue;  // each undirected edge once
    RankOneConstraint c;
    c.index = {int(it.row()), int(it.col())};
    c.value = {1.0, -1.0};
    const double len = *it;
    c.bound = len * len / scale;
    c.inequality = inequality;
    out.push_back(std::move(c));
  }
  return out;
}

double mean_squared_edge(const arma::sp_mat& G) {
  double s = 0.0;
  arma::uword e = 0;
  for (auto it = G.begin(); it != G.end(); ++it) {
    s += (*it) * (*it);
    ++e;
  }
  return e > 0 && s > 0 ? s / double(e) : 1.0;
}

arma::mat top_embedding(const arma::mat& K, arma::uword dim) {
  EigenPairs e = sym_eigs(0.5 * (K + K.t()), dim, Spectrum::Largest);
  fix_signs(e.vectors);
  arma::mat Y = e.vectors.t();
  Y.each_col() %= arma::sqrt(arma::clamp(e.values, 0.0, arma::datum::inf));
  return Y;
}

IntKey dsdp_iterations() {
  return keywords::iterations(100, 10000, "of the SDP solver (DSDP)");
}

RealKey dsdp_tolerance() {
  return keywords::tolerance(1e-6, 1.0,
                             "DSDP's relative duality gap (primal - dual) / (1 + |primal| + "
                             "|dual|) at which the SDP counts as solved");
}

ChoiceKey edge_lengths(const std::string& def) {
  return ParamSpec::choice("edge_lengths", def, {"kept", "at_most"},
                           "every kNN edge keeps its input length (kept: MVU's equalities) or "
                           "may only shrink (at_most: landmark MVU's inequalities)");
}

double mvu_constraints(arma::uword n, std::int64_t neighbours) {
  return double(n) * double(neighbours) + 1.0;
}

}  // namespace drbench
