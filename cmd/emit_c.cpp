// `repro --emit c`: a standalone C program against oneDNN's C API for a finding of the `onednn` strategy, built
// from cmd/emit_c_template.hpp with the case's problem, inputs, oneDNN path (the same memory descriptors the strategy
// created its primitives with), ISA cap and accumulation mode. A deconv is oneDNN's deconvolution with the arguments the strategy gives
// it (oracles/onednn/descs.cpp, onednn_primitives.cpp): src its input, dst its output (the output padding is
// in dst's size), weights dims {G, K/G, C/G, k...} over the canonical [C, K/G, k...] (iohw per group), padding_r its
// pad_end, dilation counted from 0.

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "cmd/emit.hpp"
#include "cmd/emit_c_template.hpp"
#include "core/input_error.hpp"
#include "core/problem/benchdnn_writer.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/op.hpp"
#include "oracles/onednn/accumulation_modes.hpp"
#include "oracles/onednn/isa_caps.hpp"
#include "oracles/onednn/onednn.hpp"

namespace convcheck {

namespace {

// Past this many input elements the program would be megabytes of literals: shrink the case first.
constexpr int64_t largest_inlined_input = 1 << 20;

void fill(std::string &text, const std::string &slot, const std::string &value) {
  const std::string marker = "@" + slot + "@";
  for (size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at + value.size()))
    text.replace(at, marker.size(), value);
}

/// Exact float literals (hex), canonical order.
std::string literals(const Tensor &tensor) {
  std::string text;
  for (int64_t i = 0; i < tensor.size(); ++i)
    text += fmt::format("{}{:a}", i % 8 == 0 ? "\n    " : " ", static_cast<double>(tensor.data<float>()[i])) + ",";
  return text.empty() ? "0" : text;
}

std::string per_axis(const Problem &problem, int64_t (*value)(const SpatialAxis &)) {
  return fmt::format("{}, {}, {}", value(problem.axes[0]), value(problem.axes[1]), value(problem.axes[2]));
}

std::string tag(const std::string &letters) { return letters == "any" ? "dnnl_format_tag_any" : "dnnl_" + letters; }

std::string canonical_tag(int rank) { return tag(std::string("abcdef").substr(0, static_cast<size_t>(rank))); }

/// oneDNN's letters for the canonical weight of `problem` over its weights dims {[G,] K/G, C/G, k...}: in order for a
/// conv (oihw, goihw), a deconv's [C, K/G, k...] with i before o (iohw, giohw).
std::string canonical_weight_letters(const Problem &problem) {
  const bool grouped = problem.groups > 1;
  std::string letters = std::string("abcdef").substr(0, static_cast<size_t>(2 + problem.ndims + grouped));
  if (info(problem.op).weight_in_channels_first) std::swap(letters[grouped], letters[grouped + 1]);
  return letters;
}

struct DirectionCode {
  const char *description, *run, *result_canonical, *result_size, *terms, *accumulate;
};

DirectionCode code_for(Direction direction, Op op) {
  switch (direction) {
  case Direction::output:
    return {"  pd = forward_pd;",
            "  guarded_t src = input(data_in, data_canonical, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0), \"src\");\n"
            "  guarded_t wei = input(weight_in, wei_canonical, dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0), \"weights\");\n"
            "  guarded_t result = guarded(dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0), 0x55, \"dst\");\n"
            "  dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src.memory}, {DNNL_ARG_WEIGHTS, wei.memory}, {DNNL_ARG_DST, result.memory},\n"
            "                            {DNNL_ARG_SCRATCHPAD, scratch.memory}};",
            "out_canonical", "N * K * O[0] * O[1] * O[2]", "C / G * KS[0] * KS[1] * KS[2]",
            "            sum[oi] += (double)data_in[di] * weight_in[wi], magnitude[oi] += fabs((double)data_in[di] * weight_in[wi]);"};
  case Direction::grad_data:
    return {"  CHECK(dnnl_@OP@_backward_data_primitive_desc_create(&pd, engine, dnnl_@OP@_direct, data_md, wei_md, out_md,\n"
            "                                                     strides, dilates, pad_l, pad_r, forward_pd, attr));",
            "  guarded_t dy = input(grad_output_in, out_canonical, dnnl_primitive_desc_query_md(pd, dnnl_query_diff_dst_md, 0), \"diff_dst\");\n"
            "  guarded_t wei = input(weight_in, wei_canonical, dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0), \"weights\");\n"
            "  guarded_t result = guarded(dnnl_primitive_desc_query_md(pd, dnnl_query_diff_src_md, 0), 0x55, \"diff_src\");\n"
            "  dnnl_exec_arg_t args[] = {{DNNL_ARG_DIFF_DST, dy.memory}, {DNNL_ARG_WEIGHTS, wei.memory},\n"
            "                            {DNNL_ARG_DIFF_SRC, result.memory}, {DNNL_ARG_SCRATCHPAD, scratch.memory}};",
            "data_canonical", "N * C * I[0] * I[1] * I[2]", "K / G * KS[0] * KS[1] * KS[2]",
            "            sum[di] += (double)grad_output_in[oi] * weight_in[wi], magnitude[di] += fabs((double)grad_output_in[oi] * weight_in[wi]);"};
  case Direction::grad_weight:
    return {"  CHECK(dnnl_@OP@_backward_weights_primitive_desc_create(&pd, engine, dnnl_@OP@_direct, data_md, wei_md, NULL,\n"
            "                                                        out_md, strides, dilates, pad_l, pad_r, forward_pd,\n"
            "                                                        attr));",
            "  guarded_t src = input(data_in, data_canonical, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0), \"src\");\n"
            "  guarded_t dy = input(grad_output_in, out_canonical, dnnl_primitive_desc_query_md(pd, dnnl_query_diff_dst_md, 0), \"diff_dst\");\n"
            "  guarded_t result = guarded(dnnl_primitive_desc_query_md(pd, dnnl_query_diff_weights_md, 0), 0x55, \"diff_weights\");\n"
            "  dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src.memory}, {DNNL_ARG_DIFF_DST, dy.memory},\n"
            "                            {DNNL_ARG_DIFF_WEIGHTS, result.memory}, {DNNL_ARG_SCRATCHPAD, scratch.memory}};",
            "wei_canonical", "K * (C / G) * KS[0] * KS[1] * KS[2]",
            // a weight element sums over every window: the output positions of a conv, the input ones of a deconv
            op == Op::deconv ? "N * I[0] * I[1] * I[2]" : "N * O[0] * O[1] * O[2]",
            "            sum[wi] += (double)data_in[di] * grad_output_in[oi], magnitude[wi] += fabs((double)data_in[di] * grad_output_in[oi]);"};
  }
  throw std::logic_error("unknown direction");
}

std::string cap_code(const std::string &cap) {
  if (cap.empty()) return "  // No ISA cap: oneDNN dispatches to the host's best kernels.";
  return fmt::format("  // The ISA cap it was found under (ONEDNN_MAX_CPU_ISA={0}), set before the first primitive.\n"
                     "  CHECK(dnnl_set_max_cpu_isa(dnnl_cpu_isa_{1}));\n"
                     "  if (dnnl_get_effective_cpu_isa() != dnnl_cpu_isa_{1}) {{\n"
                     "    printf(\"this host cannot run oneDNN's {1} kernels\\n\");\n"
                     "    return 2;\n"
                     "  }}",
                     onednn_isa_value(cap), cap);
}

std::string acc_mode_code(const std::string &mode) {
  if (mode.empty()) return "  // No accumulation mode set: oneDNN's default (strict).";
  return fmt::format("  // The accumulation mode it was found under (oracles/onednn/accumulation_modes.hpp).\n"
                     "  CHECK(dnnl_primitive_attr_set_accumulation_mode(attr, {}));",
                     onednn_accumulation_mode_c_name(mode));
}

} // namespace

std::string emit_c(const CaseFile &case_file, const std::string &case_path) {
  const Case &c = case_file.conv_case;
  const Problem &problem = c.problem;
  if (!case_file.finding || case_file.finding->strategy != "onednn")
    throw InputError(fmt::format("repro --emit c: {} is not a finding of the onednn strategy (the C reproducer is "
                                 "oneDNN's C API)",
                                 case_path));
  if (problem.precision != Precision::uniform(DType::float32))
    throw InputError(fmt::format("repro --emit c: {} is not float32, and oneDNN's CPU convolution is", case_path));
  int64_t inputs = 0;
  for (Role role : input_roles) inputs += c[role].size();
  if (inputs > largest_inlined_input)
    throw InputError(fmt::format("repro --emit c: {} has {} input elements, more than the {} a program inlines "
                                 "(shrink it first: convcheck shrink)",
                                 case_path, inputs, largest_inlined_input));
  const Direction direction = case_file.finding->direction;
  const OnednnPath path = onednn_path(c);
  const std::string cap = isa_cap_of(c);
  const bool grouped = problem.groups > 1;
  const int rank = 2 + static_cast<int>(problem.ndims);
  std::string text = c_reproducer_template;
  std::string title = fmt::format("{} {} of {}: {}", case_file.finding->strategy, to_string(direction),
                                  format_descriptor(problem), case_file.finding->problem);
  std::replace(title.begin(), title.end(), '\n', ' ');
  fill(text, "TITLE", title);
  fill(text, "CASE", case_path);
  fill(text, "NDIMS", std::to_string(problem.ndims));
  fill(text, "G", std::to_string(problem.groups));
  fill(text, "N", std::to_string(problem.batch));
  fill(text, "C", std::to_string(problem.in_channels));
  fill(text, "K", std::to_string(problem.out_channels));
  fill(text, "I", per_axis(problem, [](const SpatialAxis &a) { return a.in; }));
  fill(text, "KS", per_axis(problem, [](const SpatialAxis &a) { return a.kernel; }));
  fill(text, "S", per_axis(problem, [](const SpatialAxis &a) { return a.stride; }));
  fill(text, "D", per_axis(problem, [](const SpatialAxis &a) { return a.dilation; }));
  fill(text, "PB", per_axis(problem, [](const SpatialAxis &a) { return a.pad_begin; }));
  fill(text, "PE", per_axis(problem, [](const SpatialAxis &a) { return a.pad_end; }));
  fill(text, "O", fmt::format("{}, {}, {}", problem.out_size(0), problem.out_size(1), problem.out_size(2)));
  const bool deconv = problem.op == Op::deconv;
  fill(text, "OUT_SIZE",
       deconv ? fmt::format("(I - 1) * S - PB - PE + D * (KS - 1) + output_padding + 1, output_padding {}",
                            per_axis(problem, [](const SpatialAxis &a) { return a.output_padding; }))
              : "(I + PB + PE - D * (KS - 1) - 1) / S + 1");
  fill(text, "WEIGHT_ORDER", deconv ? "[C, K/G, k..] (IO.. per group)" : "[K, C/G, k..] (G-major OI..)");
  fill(text, "DATA", literals(c[Role::data]));
  fill(text, "WEIGHT", literals(c[Role::weight]));
  fill(text, "GRAD_OUTPUT", literals(c[Role::grad_output]));
  fill(text, "CAP", cap_code(cap));
  fill(text, "ACC_MODE", acc_mode_code(acc_mode_of(c)));
  fill(text, "CANONICAL_DATA", canonical_tag(rank));
  fill(text, "CANONICAL_WEIGHT", tag(canonical_weight_letters(problem)));
  fill(text, "PATH_NOTE", fmt::format("convcheck's oneDNN path `{}` (oracles/onednn/onednn.hpp): the descriptors the primitives "
                                      "are created with",
                                      to_string(path)));
  fill(text, "DATA_TAG",
       tag(path == OnednnPath::blocked ? "any" : benchdnn_data_tag(problem.data_layout, problem.ndims)));
  fill(text, "WEIGHT_TAG",
       tag(path != OnednnPath::plain ? "any"
           : deconv                   ? canonical_weight_letters(problem) // a deconv's is handed over as saved
                                      : benchdnn_weight_tag(onednn_weight_layout(problem, path), grouped, problem.ndims)));
  const DirectionCode code = code_for(direction, problem.op);
  fill(text, "DESC", code.description);
  fill(text, "RUN", std::string(code.run) + "\n  dnnl_primitive_t primitive;\n  CHECK(dnnl_primitive_create(&primitive, pd));\n"
                                            "  CHECK(dnnl_primitive_execute(primitive, stream, 4, args));");
  fill(text, "RESULT_CANONICAL", code.result_canonical);
  fill(text, "RESULT_SIZE", code.result_size);
  fill(text, "TERMS", code.terms);
  fill(text, "DEFINITION", deconv ? "each input element spreads through the kernel, out[n][k][i*S - PB + tap*D] += "
                                    "data[n][c][i] * weight[c][k][tap]"
                                  : "out[n][k][o] = sum over c, kernel tap of data[n][c][o*S - PB + tap*D] * "
                                    "weight[k][c][tap]");
  // The roles of the windows' two sides: a deconv's are a conv's exchanged (core/problem/op.hpp).
  fill(text, "SMALL_NAME", deconv ? "the data" : "the output");
  fill(text, "LARGE_NAME", deconv ? "the output" : "the data");
  fill(text, "SIDES", deconv ? "SC = C, LC = K, *SS = I, *LS = O" : "SC = K, LC = C, *SS = O, *LS = I");
  fill(text, "INDICES", deconv ? "di = si, oi = li" : "di = li, oi = si");
  fill(text, "ACCUMULATE", code.accumulate);
  fill(text, "OP", deconv ? "deconvolution" : "convolution");
  fill(text, "DIRECTION", to_string(direction));
  return text;
}

} // namespace convcheck
