#include "framework/results/render.hpp"

#include "framework/core/error.hpp"

namespace drbench {

std::string render_tables(const Aggregate& a, const std::string& format) {
  std::string out;
  // csv stays one plain table; its readers get the warning on stderr from the CLI.
  if (!a.incomplete.empty() && format == "md") out += "> **Warning:** " + a.incomplete + ".\n\n";
  if (!a.incomplete.empty() && format == "tex") out += "% Warning: " + a.incomplete + ".\n";
  if (a.sources.size() > 1 && format != "csv") {
    std::string list;
    for (const auto& s : a.sources) list += (list.empty() ? "" : ", ") + s;
    out += std::string(format == "md" ? "" : "% ") + "Cells from " +
           std::to_string(a.sources.size()) + " results files, each cell from one: " + list +
           ".\n\n";
  }
  for (const auto& t : make_tables(a)) {
    if (format == "md")
      out += to_markdown(t, a) + "\n";
    else if (format == "csv")  // one header for the whole stream, so it reads as one table
      out += out.empty() ? to_csv(t, a) : to_csv(t, a).substr(to_csv(t, a).find('\n') + 1);
    else if (format == "tex")
      out += to_latex(t, a) + "\n";
    else
      throw Error("unknown table format '" + format + "' (valid: md, csv, tex)");
  }
  return out;
}

}  // namespace drbench
