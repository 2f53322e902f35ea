#include "framework/results/ranks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "framework/core/error.hpp"
#include "framework/results/stats.hpp"

namespace drbench {

double upper_incomplete_gamma(double a, double x) {
  if (a <= 0 || x < 0) throw Error("upper_incomplete_gamma: needs a > 0 and x >= 0");
  if (x == 0) return 1.0;
  const double log_front = a * std::log(x) - x - std::lgamma(a);
  if (x < a + 1) {  // the series of P(a, x) converges fast here
    double term = 1.0 / a, sum = term;
    for (int n = 1; n < 10000; ++n) {
      term *= x / (a + n);
      sum += term;
      if (std::abs(term) < std::abs(sum) * 1e-16) break;
    }
    return 1.0 - sum * std::exp(log_front);
  }
  // Continued fraction of Q(a, x) by the modified Lentz method.
  const double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < 1e-16) break;
  }
  return std::exp(log_front) * h;
}

double chi2_sf(double x, double df) {
  return upper_incomplete_gamma(df / 2, std::max(0.0, x) / 2);
}

std::vector<double> block_ranks(const std::vector<double>& v, bool higher_better) {
  std::vector<std::size_t> ord(v.size());
  std::iota(ord.begin(), ord.end(), std::size_t(0));
  auto better = [&](std::size_t a, std::size_t b) {
    return higher_better ? v[a] > v[b] : v[a] < v[b];
  };
  std::stable_sort(ord.begin(), ord.end(), better);
  std::vector<double> r(v.size());
  for (std::size_t s = 0; s < ord.size();) {
    std::size_t e = s + 1;
    while (e < ord.size() && v[ord[e]] == v[ord[s]]) ++e;
    for (std::size_t t = s; t < e; ++t) r[ord[t]] = 0.5 * double(s + 1 + e);
    s = e;
  }
  return r;
}

namespace {

double normal_pdf(double z) {
  return std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI);
}
double normal_cdf(double z) {
  return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

// P(range of k standard normals <= w) = k * int phi(z) (Phi(z + w) - Phi(z))^(k-1) dz (Simpson).
double range_cdf(double w, std::size_t k) {
  const int n = 4000;
  const double lo = -9, hi = 9, h = (hi - lo) / n;
  double s = 0;
  for (int i = 0; i <= n; ++i) {
    const double z = lo + i * h;
    const double f = normal_pdf(z) * std::pow(normal_cdf(z + w) - normal_cdf(z), double(k - 1));
    s += f * (i == 0 || i == n ? 1 : (i % 2 ? 4 : 2));
  }
  return double(k) * s * h / 3;
}

}  // namespace

double nemenyi_q(std::size_t k, double alpha) {
  if (k < 2) return 0;
  double lo = 0, hi = 20;
  for (int it = 0; it < 100; ++it) {
    const double mid = 0.5 * (lo + hi);
    (range_cdf(mid, k) < 1 - alpha ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi) / std::sqrt(2.0);
}

FriedmanResult friedman(const std::vector<std::vector<double>>& ranks, double alpha) {
  FriedmanResult f;
  f.blocks = ranks.size();
  f.methods = ranks.empty() ? 0 : ranks[0].size();
  const double N = double(f.blocks), k = double(f.methods);
  f.mean_rank.assign(f.methods, 0.0);
  for (const auto& row : ranks)
    for (std::size_t j = 0; j < f.methods; ++j) f.mean_rank[j] += row.at(j) / N;
  if (f.blocks < 2 || f.methods < 2) {
    f.p = f.p_f = std::nan("");
    return f;
  }
  double ss = 0;
  for (double r : f.mean_rank) ss += r * r;
  f.chi2 = 12 * N / (k * (k + 1)) * (ss - k * (k + 1) * (k + 1) / 4);
  // Ties: divide by 1 - sum(t^3 - t) / (N k (k^2 - 1)), as scipy.stats.friedmanchisquare does.
  double ties = 0;
  for (const auto& row : ranks) {
    std::vector<double> r = row;
    std::sort(r.begin(), r.end());
    for (std::size_t s = 0; s < r.size();) {
      std::size_t e = s + 1;
      while (e < r.size() && r[e] == r[s]) ++e;
      const double t = double(e - s);
      ties += t * t * t - t;
      s = e;
    }
  }
  const double c = 1 - ties / (N * k * (k * k - 1));
  if (c > 0) f.chi2 /= c;
  f.p = chi2_sf(f.chi2, k - 1);
  const double d1 = k - 1, d2 = (k - 1) * (N - 1), den = N * (k - 1) - f.chi2;
  if (den > 0) {
    f.iman_davenport = (N - 1) * f.chi2 / den;
    f.p_f = incomplete_beta(d2 / 2, d1 / 2, d2 / (d2 + d1 * f.iman_davenport));
  } else {  // every block ranks alike: F is infinite
    f.iman_davenport = INFINITY;
    f.p_f = 0;
  }
  f.q_alpha = nemenyi_q(f.methods, alpha);
  f.cd = f.q_alpha * std::sqrt(k * (k + 1) / (6 * N));
  return f;
}

RankTable rank_methods(const Aggregate& a, double alpha) {
  RankTable t;
  t.measure =
      a.metric.empty()
          ? std::to_string(a.k.empty() ? 1 : a.k[0]) + "-NN error"
          : (a.k.empty() || a.k[0] == 0 ? a.metric : a.metric + "@" + std::to_string(a.k[0]));
  const bool higher = a.higher_better;
  std::vector<std::string> labels;
  for (const auto& l : a.labels)
    for (const auto& c : a.cells)
      if (c.label == l && c.chosen()) {
        labels.push_back(l);
        break;
      }
  t.labels = labels;
  if (a.protocols().size() > 1)
    for (const auto& p : a.protocols()) {
      std::string names;
      for (const auto& l : labels)
        for (const auto& c : a.cells)
          if (c.label == l && c.protocol == p) {
            names += (names.empty() ? "" : ", ") + l;
            break;
          }
      t.protocols += (t.protocols.empty() ? "" : "; ") + p + ": " + names;
    }
  for (const auto& ds : a.datasets)
    for (double sv : a.split_values) {
      std::vector<double> row;
      std::string missing;
      for (const auto& l : labels) {
        double best = std::nan("");
        for (const auto& c : a.cells)
          if (c.dataset == ds && c.label == l && c.split_value == sv && c.chosen()) {
            const double v = c.chosen()->mean.at(0);
            if (std::isnan(best) || (higher ? v > best : v < best)) best = v;
          }
        if (std::isnan(best)) missing += (missing.empty() ? "" : ", ") + l;
        row.push_back(best);
      }
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", sv);
      const std::string name =
          ds + (a.split_values.size() > 1 ? " (" + a.split_kind + "=" + buf + ")" : "");
      if (!missing.empty()) {
        t.left_out.push_back(name + ": no result for " + missing);
        continue;
      }
      t.blocks.push_back(name);
      t.values.push_back(row);
      t.ranks.push_back(block_ranks(row, higher));
    }
  t.test = friedman(t.ranks, alpha);
  return t;
}

std::string rank_markdown(const RankTable& t, double alpha) {
  auto f = [](const char* fmt, double v) {
    char b[64];
    std::snprintf(b, sizeof b, fmt, v);
    return std::string(b);
  };
  const FriedmanResult& r = t.test;
  std::string s =
      "**Ranks by " + t.measure + " over " + std::to_string(t.blocks.size()) + " dataset block" +
      (t.blocks.size() == 1 ? "" : "s") +
      " (1 = best; each method at its best setting and dim; Demsar 2006" +
      (t.protocols.empty() ? std::string()
                           : "; methods of different protocols ranked together: " + t.protocols) +
      ")**\n\n| block |";
  s += markdown_columns(t.labels, "---:");
  for (std::size_t b = 0; b < t.blocks.size(); ++b) {
    s += "| " + t.blocks[b] + " |";
    for (std::size_t j = 0; j < t.labels.size(); ++j)
      s += " " + f("%.4g", t.values[b][j]) + " (" + f("%g", t.ranks[b][j]) + ") |";
    s += "\n";
  }
  s += "| **mean rank** |";
  for (double m : r.mean_rank) s += " **" + f("%.3f", m) + "** |";
  s += "\n\n";
  if (r.blocks >= 2 && r.methods >= 2) {
    s += "Friedman chi2 = " + f("%.4g", r.chi2) + " (df " + std::to_string(r.methods - 1) +
         "), p = " + f("%.4g", r.p) + "; Iman-Davenport F = " + f("%.4g", r.iman_davenport) +
         " (df " + std::to_string(r.methods - 1) + ", " +
         std::to_string((r.methods - 1) * (r.blocks - 1)) + "), p = " + f("%.4g", r.p_f) +
         ". Nemenyi critical difference at alpha = " + f("%g", alpha) +
         ": CD = " + f("%.3f", r.cd) + " (q = " + f("%.3f", r.q_alpha) +
         "); mean ranks further apart than CD differ significantly" +
         (r.p_f < alpha ? "." : ", but the Friedman test does not reject equal ranks here.") + "\n";
  } else {
    s += "Too few blocks or methods for the Friedman test (needs at least 2 of each).\n";
  }
  for (const auto& l : t.left_out) s += "\nLeft out: " + l;
  if (!t.left_out.empty()) s += "\n";
  return s;
}

std::string rank_csv(const RankTable& t, double alpha) {
  auto q = [](const std::string& v) {
    if (v.find_first_of(",\"\n") == std::string::npos) return v;
    std::string o = "\"";
    for (char ch : v) o += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return o + "\"";
  };
  auto g = [](double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%.17g", v);
    return std::string(b);
  };
  std::string left;
  for (const auto& l : t.left_out) left += (left.empty() ? "" : "; ") + l;
  const FriedmanResult& r = t.test;
  const std::string tail = "," + q(t.measure) + "," + std::to_string(t.blocks.size()) + "," +
                           std::to_string(t.labels.size()) + "," + g(r.chi2) + "," + g(r.p) + "," +
                           g(r.iman_davenport) + "," + g(r.p_f) + "," + g(alpha) + "," +
                           g(r.q_alpha) + "," + g(r.cd) + "," + q(t.protocols) + "," + q(left);
  std::string s =
      "label,mean_rank,measure,blocks,methods,chi2,p,iman_davenport,p_f,alpha,q_alpha,cd,"
      "protocols,left_out\n";
  for (std::size_t j = 0; j < t.labels.size(); ++j)
    s += q(t.labels[j]) + "," + g(j < r.mean_rank.size() ? r.mean_rank[j] : std::nan("")) + tail +
         "\n";
  return s;
}

}  // namespace drbench
