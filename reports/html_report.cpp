#include "reports/html_report.hpp"

#include <fmt/format.h>

#include "core/problem/descriptor.hpp"
#include "reports/atomic_write.hpp"
#include "reports/html_pictures.hpp"
#include "reports/html_skips.hpp"
#include "reports/markup.hpp"
#include "reports/text_summary.hpp"

namespace convcheck {

namespace {

// Findings drawn in full; the JSON report has the rest.
constexpr size_t max_finding_cards = 50;
constexpr size_t max_unsaved_rows = 20;

// Verdict colors: green pass, amber weak, red fail, grey skip (the same in the matrix, legends and banner).
constexpr const char *style = R"css(
:root { --pass: #2e9d4f; --weak: #e0a020; --fail: #d64545; --skip: #9aa0a6; --ink: #1f2328; --muted: #57606a;
        --line: #d8dee4; --paper: #ffffff; --ground: #f2f4f7;
        --mono: "DejaVu Sans Mono", ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--ground); color: var(--ink);
       font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Arial, sans-serif; }
main { max-width: 1240px; margin: 0 auto; padding: 20px 20px 36px; }
header { display: flex; align-items: center; justify-content: space-between; gap: 24px; padding: 22px 28px;
         border-radius: 12px; color: #fff; }
header.pass { background: linear-gradient(120deg, #23834a, #34a95c); }
header.fail { background: linear-gradient(120deg, #b83232, #de5a4a); }
header h1 { margin: 0; font-size: 20px; font-weight: 600; opacity: .95; }
header .origin { font-size: 14px; opacity: .9; }
header .verdict { font-size: 52px; font-weight: 800; letter-spacing: .02em; line-height: 1; text-align: right; }
header .verdict small { display: block; font-size: 15px; font-weight: 500; letter-spacing: 0; margin-top: 6px; }
.cards { display: grid; grid-template-columns: repeat(7, 1fr); gap: 12px; margin-top: 16px; }
.card { background: var(--paper); border: 1px solid var(--line); border-radius: 10px; padding: 10px 14px; }
.card .label { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
.card .value { font-size: 22px; font-weight: 650; font-variant-numeric: tabular-nums; white-space: nowrap; }
.card .value.warn { color: #a86b00; }
section { background: var(--paper); border: 1px solid var(--line); border-radius: 12px; padding: 18px 24px 22px;
          margin-top: 20px; }
h2 { margin: 0 0 10px; font-size: 19px; }
.note { color: var(--muted); margin: 0 0 12px; max-width: 980px; }
.missing { background: #fff8e6; border: 1px solid #f0d48a; border-radius: 8px; padding: 10px 14px; }
code, pre { font-family: var(--mono); font-size: 13.5px; }
.legend { display: flex; flex-wrap: wrap; gap: 18px; margin: 4px 0 12px; font-size: 13.5px; color: var(--muted); }
.legend i { display: inline-block; width: 12px; height: 12px; border-radius: 3px; margin-right: 6px;
            vertical-align: -1px; }
table.matrix { border-collapse: separate; border-spacing: 6px; margin-left: -6px; width: calc(100% + 12px);
               table-layout: fixed; }
.matrix col.name { width: 190px; }
.matrix th { text-align: left; font-weight: 600; padding: 4px 8px; }
.matrix th.strategy { font-family: var(--mono); font-weight: 500; white-space: nowrap; }
.matrix td { padding: 8px 12px; border-radius: 8px; vertical-align: top; font-size: 13.5px;
             font-variant-numeric: tabular-nums; }
.matrix td.pass { background: #e7f5ec; } .matrix td.fail { background: #fbe4e4; }
.matrix td.weak { background: #fdf3dc; } .matrix td.skip { background: #eef0f2; color: var(--muted); }
.split { display: flex; height: 8px; border-radius: 4px; overflow: hidden; background: #e5e7eb; margin-bottom: 6px; }
.split span { display: block; height: 100%; }
.c-pass { background: var(--pass); } .c-weak { background: var(--weak); }
.c-fail { background: var(--fail); } .c-skip { background: var(--skip); } .c-held { background: #7c6bb0; }
.n-pass { color: #1f7a3d; } .n-weak { color: #9a6500; } .n-fail { color: #b32b2b; font-weight: 700; }
.n-skip { color: var(--muted); } .n-held { color: #5b4a96; }
.tag { display: inline-block; font-size: 11.5px; font-weight: 600; padding: 1px 7px; border-radius: 10px;
       background: #efe7fb; color: #6a3fb0; margin-left: 8px; vertical-align: 1px; font-family: inherit; }
article.finding { border: 1px solid #f1c2c2; border-left: 6px solid var(--fail); border-radius: 10px;
                  padding: 12px 18px; margin-top: 14px; background: #fffafa; }
article.finding h3 { margin: 0 0 8px; font-size: 17px; }
article.finding h3 .what { font-family: var(--mono); }
article.finding h3 .where { color: var(--muted); font-weight: 400; font-size: 14px; margin-left: 10px; }
dl.facts { display: grid; grid-template-columns: 130px 1fr; gap: 6px 14px; margin: 0; }
dl.facts dt { color: var(--muted); font-size: 13.5px; padding-top: 2px; }
dl.facts dd { margin: 0; min-width: 0; }
dl.facts pre { margin: 0; padding: 7px 10px; background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px;
               white-space: pre-wrap; overflow-wrap: anywhere; }
dl.facts .shrunk { font-size: 16px; font-weight: 600; }
details { margin-top: 14px; color: var(--muted); }
details summary { cursor: pointer; }
table.neighbours { border-collapse: collapse; margin-top: 6px; font-size: 13px; }
.neighbours td { border-bottom: 1px solid var(--line); padding: 3px 8px; }
.neighbours tr.fails td:first-child { color: var(--fail); font-weight: 600; }
table.unsaved { border-collapse: collapse; margin-top: 14px; font-size: 13.5px; width: 100%; }
.unsaved th, .unsaved td { border-bottom: 1px solid var(--line); padding: 5px 8px; text-align: left;
                          vertical-align: top; }
.unsaved td.problem { overflow-wrap: anywhere; }
.charts { display: flex; flex-wrap: wrap; gap: 20px 22px; align-items: flex-start; }
figure { margin: 0; }
figcaption { font-weight: 600; margin-bottom: 2px; }
#ratios figcaption { font-family: var(--mono); font-weight: 500; }
#ratios svg.chart text.tick { font-size: 10.5px; }
svg.chart { display: block; overflow: visible; }
svg.chart text { font-size: 11px; fill: var(--muted); }
svg.chart text.axis-label { font-size: 12px; fill: var(--ink); }
svg.chart text.value { font-size: 10.5px; fill: var(--ink); }
svg.chart text.cell { font-size: 12.5px; font-weight: 600; }
svg.chart text.cell-mark { font-size: 10.5px; font-weight: 700; }
#judged { border: 1px solid #f0d9a0; border-left: 6px solid var(--weak); border-radius: 10px; padding: 4px 18px;
          margin-top: 14px; background: #fffbf0; }
th.strategy .implementation { font-weight: 400; font-size: 12.5px; color: var(--muted); }
footer { color: var(--muted); font-size: 13px; margin-top: 18px; text-align: center; }
)css";

std::string duration(double seconds) {
  if (seconds < 60) return fmt::format("{:.1f} s", seconds);
  if (seconds < 3600)
    return fmt::format("{} min {:02} s", static_cast<int>(seconds) / 60, static_cast<int>(seconds) % 60);
  return fmt::format("{} h {:02} min", static_cast<int>(seconds) / 3600, static_cast<int>(seconds) / 60 % 60);
}

// "1 finding", "3 findings".
std::string count_of(size_t count, const std::string &noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

// A finding is a strategy and direction that failed; its failing cases are usually one bug seen many times.
size_t failing_pairs(const CampaignReport &report) {
  size_t pairs = 0;
  for (const StrategyTally &strategy : report.tallies)
    for (const auto &[direction, tally] : strategy.by_direction) pairs += tally.failed > 0 ? 1 : 0;
  return pairs;
}

std::string header(const CampaignReport &report, const std::string &origin) {
  const size_t findings = failing_pairs(report);
  const std::string verdict = !report.failed() ? "PASS" : findings > 0 ? count_of(findings, "finding") : "FAIL";
  std::string detail = report.failed() ? count_of(report.failures.size(), "failing result") + " in " +
                                             count_of(findings, "strategy &times; direction pair")
                                       : "every strategy agreed with the reference on every case";
  if (!report.unmade_cases.empty()) detail += "; " + count_of(report.unmade_cases.size(), "case") + " not made";
  return fmt::format("<header class=\"{}\"><div><h1>convcheck report</h1><div class=\"origin\">{}</div></div>"
                     "<div class=\"verdict\" id=\"verdict\">{}<small>{}</small></div></header>\n",
                     report.failed() ? "fail" : "pass",
                     markup_escape(origin.empty() ? fmt::format("campaign with seed {}", report.seed) : origin),
                     markup_escape(verdict), detail);
}

std::string card(const std::string &label, const std::string &value, bool warn = false) {
  return fmt::format("<div class=\"card\"><div class=\"label\">{}</div><div class=\"value{}\">{}</div></div>",
                     markup_escape(label), warn ? " warn" : "", markup_escape(value));
}

std::string summary(const CampaignReport &report) {
  const double rate = report.elapsed_s > 0 ? static_cast<double>(report.cases) / report.elapsed_s : 0.0;
  return "<div class=\"cards\" id=\"summary\">" + card("seed", std::to_string(report.seed)) +
         card("cases", std::to_string(report.cases)) + card("elapsed", duration(report.elapsed_s)) +
         card("cases / s", format_rate(rate)) + card("fill", to_string(report.fill)) +
         card("strategies", std::to_string(report.tallies.size())) +
         card("interrupted", report.interrupted ? "yes" : "no", report.interrupted) + "</div>\n";
}

std::string matrix_cell(const Tally &tally) {
  const int64_t total = tally.passed + tally.weak + tally.failed + tally.skipped + tally.held_back;
  const char *state = tally.failed > 0 ? "fail" : tally.passed > 0 ? "pass" : tally.weak > 0 ? "weak" : "skip";
  std::string bar = "<div class=\"split\">", counts;
  const std::pair<int64_t, const char *> parts[] = {
      {tally.passed, "pass"}, {tally.weak, "weak"}, {tally.failed, "fail"}, {tally.skipped, "skip"},
      {tally.held_back, "held"}};
  const char *words[] = {"passed", "weak", "failed", "skipped", "held back"};
  for (size_t i = 0; i < std::size(parts); ++i) {
    const auto [count, kind] = parts[i];
    if (count == 0) continue;
    bar += fmt::format("<span class=\"c-{}\" style=\"width:{:.2f}%\"></span>", kind, 100.0 * count / total);
    counts +=
        fmt::format("{}<span class=\"n-{}\">{} {}</span>", counts.empty() ? "" : " &middot; ", kind, count, words[i]);
  }
  if (total == 0) counts = "no case";
  return fmt::format("<td class=\"{}\">{}</div>{}</td>", state, bar, counts);
}

std::string matrix(const CampaignReport &report) {
  std::string html = "<section id=\"matrix\">\n<h2>Strategies &times; directions</h2>\n" +
                     legend({{"#2e9d4f", "passed"},
                             {"#e0a020", "weak (reference mostly zeros)"},
                             {"#d64545", "failed"},
                             {"#9aa0a6", "skipped (unsupported, or left out by the cost plan: the skip table says which)"},
                             {"#7c6bb0", "held back (a known library bug)"}}) +
                     "<table class=\"matrix\"><colgroup><col class=\"name\"><col><col><col></colgroup>"
                     "<thead><tr><th>strategy</th>";
  const std::vector<Direction> columns = report.directions();
  for (Direction direction : columns) html += "<th>" + to_string(direction) + "</th>";
  html += "</tr></thead><tbody>\n";
  for (const StrategyTally &strategy : report.tallies) {
    const Strategy *registered = find_strategy(strategy.name);
    html += fmt::format("<tr><th class=\"strategy\">{}{}{}</th>", markup_escape(strategy.name),
                        registered && registered->injected ? "<span class=\"tag\">injected</span>" : "",
                        strategy.identity.empty()
                            ? ""
                            : "<div class=\"implementation\">" + markup_escape(strategy.identity.describe()) + "</div>");
    for (Direction direction : columns) {
      const auto found = strategy.by_direction.find(direction);
      html += found != strategy.by_direction.end() ? matrix_cell(found->second) : "<td></td>";
    }
    html += "</tr>\n";
  }
  return html + "</tbody></table>\n</section>\n";
}

// The failing region around a shrunk finding: its neighbours that pass first (they bound the bug), then the rest,
// each with its change.
std::string neighbour_rows(const std::vector<NeighbourRow> &rows) {
  if (rows.empty()) return "";
  std::string html = fmt::format("<dt>failing region</dt><dd><details open><summary>{}</summary>\n"
                                 "<table class=\"neighbours\"><tbody>\n", markup_escape(neighbour_summary(rows)));
  for (bool failing : {false, true})
    for (const NeighbourRow &row : rows)
      if ((row.verdict == "fails") == failing)
        html += fmt::format("<tr class=\"{}\"><td>{}</td><td>{}</td><td><code>{}</code></td></tr>\n",
                            failing ? "fails" : "passes", markup_escape(row.verdict), markup_escape(row.change),
                            markup_escape(row.descriptor));
  return html + "</tbody></table></details></dd>\n";
}

std::string finding_card(const ReportedFailure &reported, FillMode fill) {
  const Failure &failure = reported.failure;
  const SavedFinding &saved = *reported.saved;
  return fmt::format(
      "<article class=\"finding\"><h3><span class=\"what\">{} &middot; {}{}</span><span class=\"where\">case {}, "
      "{} fill</span>"
      "</h3>\n<dl class=\"facts\"><dt>shrunk to</dt><dd><code class=\"shrunk\">{}</code></dd>\n"
      "<dt>problem</dt><dd><pre>{}</pre></dd>\n<dt>repro</dt><dd><pre class=\"repro\">convcheck repro {}</pre></dd>\n"
      "<dt>found on</dt><dd><code>{}</code> <span class=\"n-skip\">(shrunk in {} steps, {:.1f} s)</span></dd>\n{}"
      "</dl></article>\n",
      markup_escape(failure.strategy), to_string(failure.direction),
      failure.kind == FailureKind::mismatch ? "" : " &middot; " + to_string(failure.kind), failure.case_index,
      to_string(fill),
      markup_escape(format_descriptor(saved.shrunk)), markup_escape(saved.problem), markup_escape(saved.path),
      markup_escape(format_descriptor(failure.config)), saved.shrink_steps, saved.shrink_s,
      neighbour_rows(saved.neighbours));
}

std::string findings(const CampaignReport &report) {
  std::string html = "<section id=\"findings\">\n<h2>Findings</h2>\n";
  if (!report.failed()) return html + "<p class=\"note\">None: no result went over its bound.</p>\n</section>\n";
  size_t cards = 0, unsaved = 0;
  std::string rows;
  for (const ReportedFailure &reported : report.failures) {
    if (reported.saved) {
      if (cards++ < max_finding_cards) html += finding_card(reported, fill_of(report, reported.failure));
      continue;
    }
    if (unsaved++ < max_unsaved_rows)
      rows += fmt::format(
          "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td><code>{}</code></td>"
          "<td class=\"problem\">{}</td></tr>\n",
          reported.failure.case_index, markup_escape(reported.failure.strategy), to_string(reported.failure.direction),
          markup_escape(format_descriptor(reported.failure.config)), markup_escape(reported.failure.problem));
  }
  if (cards > max_finding_cards)
    html += fmt::format("<p class=\"note\">{} more saved findings are in the JSON report.</p>\n",
                        cards - max_finding_cards);
  if (!report.unmade_cases.empty()) {
    html += fmt::format("<p class=\"note\">{} or their double references could not be made (convcheck's own code "
                        "crashed or overran the case timeout; no strategy ran):</p>\n<table class=\"unsaved\"><thead>"
                        "<tr><th>case</th><th>config</th><th>problem</th></tr></thead><tbody>\n",
                        count_of(report.unmade_cases.size(), "case"));
    for (const UnmadeCase &unmade : report.unmade_cases)
      html += fmt::format("<tr><td>{}</td><td><code>{}</code></td><td class=\"problem\">{}</td></tr>\n",
                          unmade.case_index, markup_escape(format_descriptor(unmade.config)),
                          markup_escape(unmade.problem));
    html += "</tbody></table>\n";
  }
  if (unsaved > 0)
    html += fmt::format("<details{}><summary>{} not saved (only the first of each strategy and direction are, see "
                        "<code>--max-saved</code>){}</summary>\n"
                        "<table class=\"unsaved\"><thead><tr><th>case</th><th>strategy</th><th>direction</th>"
                        "<th>config</th><th>problem</th></tr></thead><tbody>\n{}</tbody></table></details>\n",
                        cards == 0 ? " open" : "", count_of(unsaved, "failing result"),
                        unsaved > max_unsaved_rows ? fmt::format("; the first {}:", max_unsaved_rows) : ":", rows);
  return html + "</section>\n";
}

} // namespace

std::string html_report(const CampaignReport &report, const std::string &origin) {
  return fmt::format("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                     "<title>convcheck: {}</title>\n<style>{}</style></head>\n<body><main>\n{}{}{}{}{}{}{}{}"
                     "<footer>convcheck {} &middot; seed {} &middot; {} cases</footer>\n</main></body></html>\n",
                     !report.failed()                 ? "pass"
                     : failing_pairs(report) > 0 ? count_of(failing_pairs(report), "finding")
                                                 : "fail",
                     style,
                     header(report, origin), judged_section(report), summary(report), matrix(report), findings(report),
                     skip_section(report), ratio_section(report),
                     config_space_section(report), CONVCHECK_VERSION, report.seed, report.cases);
}

void write_html_report(const std::string &path, const CampaignReport &report, const std::string &origin) {
  write_text_atomically(path, html_report(report, origin));
}

} // namespace convcheck
