#pragma once
// Lines of a oneDNN benchdnn convolution batch file (tests/benchdnn/inputs/conv/*), read with benchdnn's own
// meaning so a shape that fails there can be replayed here:
//
//   g1ic3oc17_ih8oh4kh3ph1sh2_n"2d_conv:1st_stride_tail"
//
// The semantics are those of benchdnn's conv::str2desc (tests/benchdnn/conv/conv_aux.cpp), sanitize_desc
// (tests/benchdnn/common.cpp) and desc_t::init_pad_r (tests/benchdnn/conv/conv.hpp):
// - keys g mb ic ih iw oc oh ow kh kw sh sw ph pw dh dw (and the depth keys id od kd sd pd dd), each followed
//   by a decimal value, `_` allowed between them; `n` starts the name, which runs to the end of the line;
// - defaults: g 1, mb 2 (not convcheck's 1), stride 1, dilation 0 (benchdnn counts dilation from 0, so `dh1`
//   becomes dilation_height 2 here);
// - an axis (height or width) takes part when any of its input, kernel, output or dilation is non-zero, its
//   stride is not 1 or its padding is at least 1; a missing output is computed with the padding on both
//   sides, a missing padding next to a given output is deduced; with only the height given the whole width
//   axis is copied from it (square problem), with only the width given the height is 1 (a 1-D problem);
// - the given (or deduced) ph/pw are the top/left padding; the bottom/right one is always derived:
//   (oh - 1) * sh - ih + (kh - 1) * (dh + 1) + 1 - ph, so that the output size is exactly oh.
// Lines convcheck cannot run are skipped with a reason rather than rejected: option lines (`--dir=...`),
// 3-D descriptors and descriptors whose derived padding is negative.

#include <optional>
#include <string>

#include "core/problem/problem.hpp"

namespace convcheck {

/// One line of a benchdnn batch file, parsed with benchdnn's own conv semantics.
struct BenchdnnLine {
  std::optional<Problem> problem; // set when the line is a 2-D (or 1-D) conv descriptor convcheck can run
  std::string skip_reason;          // set when the line is skipped: comment-only/blank (empty reason is fine
                                    // for those, config empty too), an option line `--...`, a 3-D descriptor,
                                    // or a descriptor whose derived padding is negative
  std::string name;                 // the n"..." name if any
};

/// Parses one line (comments after '#' and surrounding blanks removed first). Throws InputError (core/input_error.hpp)
/// quoting the whole line for a malformed descriptor: unknown key, missing value, duplicate key, missing ic/oc/ih
/// or kh (or their 1-D width forms), non-divisible groups is left to validate() (do not check it here).
/// The quoted text is the descriptor as parsed (comment and surrounding blanks removed). A key repeated with the
/// SAME value is accepted, as benchdnn does and as oneDNN's own inputs/conv/shapes_regression_padding needs
/// (`ih10kh5_kh5`); a key repeated with a different value is the error. The config is not validate()d.
BenchdnnLine parse_benchdnn_line(const std::string &line);

} // namespace convcheck
