#pragma once
// Lines of a oneDNN benchdnn convolution or deconvolution batch file (tests/benchdnn/inputs/conv/*, deconv/*), read
// with benchdnn's own meaning so a shape that fails there can be replayed here, in every rank:
//
//   g1ic3oc17_ih8oh4kh3ph1sh2_n"2d_conv:1st_stride_tail"
//   g1mb50ic3iw224oc64ow112kw7sw2pw3n"conv1d:2"
//   g1ic32oc64_id64od32kd2sd2dd0pd0_ih64oh32kh2sh2dh0ph0_iw32ow16kw2sw2dw0pw0_n"vnet:conv1"
//
// The semantics are those of benchdnn's conv::str2desc (tests/benchdnn/conv/conv_aux.cpp), sanitize_desc
// (tests/benchdnn/common.cpp) and desc_t::init_pad_r (tests/benchdnn/conv/conv.hpp):
// - keys g mb ic oc and, per spatial axis, id/ih/iw od/oh/ow kd/kh/kw sd/sh/sw pd/ph/pw dd/dh/dw, each followed
//   by a decimal value, `_` allowed between them; `n` starts the name, which runs to the end of the line;
// - defaults: g 1, mb 2 (not convcheck's 1), stride 1, dilation 0 (benchdnn counts dilation from 0, so `dh1`
//   becomes dilation 2 here);
// - an axis takes part when any of its input, kernel, output or dilation is non-zero, its stride is not 1 or its
//   padding is at least 1; a missing output is computed with the padding on both sides, a missing padding next to
//   a given output is deduced (rounded toward zero, so it may come out negative);
// - the rank: any depth entry makes a 3-D problem (ndims 3), else any height entry a 2-D one, else a 1-D one
//   (ndims 1: only width entries). A 3-D descriptor gives height and width entries both or neither, and with
//   neither they copy the depth axis (cubic); a 2-D one without width entries copies the height axis (square).
//   A line that spells out unit depth and height entries (`kd1id1od1`, as oneDNN's shapes_dilated_1d_* do) is
//   3-D, as it is in benchdnn;
// - the given (or deduced) pd/ph/pw are the front/top/left padding; the back/bottom/right one is always derived:
//   (oh - 1) * sh - ih + (kh - 1) * (dh + 1) + 1 - ph, so that the output size is exactly oh. It is negative when
//   the last window ends before the input does (ih8 kh1 sh2 oh4: -1); convcheck's Problem holds that as a crop.
// Option lines (`--dir=...`) are skipped with a reason rather than rejected; every descriptor line gives a Problem.
// Neither the groups nor the tensor sizes are checked here: validate() does that (a line may exceed the element cap).
//
// With the deconv driver (benchdnn --deconv, tests/benchdnn/inputs/deconv/*), the same syntax has the meaning of
// deconv::str2desc (tests/benchdnn/deconv/deconv_aux.cpp) and its desc_t::init_pad_r (deconv/deconv.hpp), which are
// the conv ones with input and output exchanged: ih/iw/id are the deconv's input, oh/ow/od its output, ic/oc its
// C_in/C_out (convcheck's deconv Problem, core/problem/op.hpp, holds the same sizes), and
// - a missing output is (i - 1) * s + (k - 1) * (d + 1) + 1 - 2 * p (compute_out): every tap written;
// - a missing padding next to a given output is ((i - 1) * s - o + (k - 1) * (d + 1) + 1) / 2, rounded toward zero;
// - the end padding benchdnn derives, (i - 1) * s - o + (k - 1) * (d + 1) + 1 - p, makes the output exactly o.
// benchdnn has no output_padding: the output size says it. convcheck splits that derived end padding
// (benchdnn_deconv_end): an output longer than with pad_end = pad_begin by less than max(stride, dilation) is held
// as output_padding with pad_end = pad_begin (googlenet's `ih112oh224kh7sh2ph3`: output_padding 1); any other
// difference goes to the end padding itself: larger for a shorter output (`iw5ow2kw3pw3dw2`: pad_end 6), smaller
// and possibly negative for one longer by max(stride, dilation) or more (`iw5ow9kw3pw0`: pad_end -2). Either split
// is the same deconv element for element (only pad_end - output_padding enters its equivalent conv). This one
// states the output as PyTorch's ConvTranspose does (one padding per axis plus an output_padding below
// max(stride, dilation), the rule convcheck enforces), so such a line reaches the strategies that take only
// symmetric padding, and the end padding stays non-negative where the other split would make it a crop (-1 for
// googlenet's line), which some strategies skip.

#include <optional>
#include <string>

#include "core/problem/benchdnn_precision.hpp"
#include "core/problem/problem.hpp"

namespace convcheck {

/// One line of a benchdnn batch file, parsed with benchdnn's own semantics for the driver (conv or deconv).
struct BenchdnnLine {
  std::optional<Problem> problem; // set when the line is a descriptor (of any rank), with the driver's op
  std::string skip_reason;         // set when the line is an option line `--...`; empty (and no problem) for a
                                   // blank or comment-only line
  std::string name;                // the n"..." name if any
  /// set when the line is one `--dt=` or `--cfg=` option: the formats of the descriptor lines after it
  std::optional<BenchdnnPrecision> precision;
};

/// Parses one line (comments after '#' and surrounding blanks removed first). Throws InputError (core/input_error.hpp)
/// quoting the whole line for a malformed descriptor: unknown key, missing value, duplicate key, missing ic/oc or a
/// missing input or kernel size of an axis that takes part, a 3-D descriptor with height but no width entries (or
/// the reverse), a computed output that is not positive. Non-divisible groups are left to validate().
/// The quoted text is the descriptor as parsed (comment and surrounding blanks removed). A key repeated with the
/// SAME value is accepted, as benchdnn does and as oneDNN's own inputs/conv/shapes_regression_padding needs
/// (`ih10kh5_kh5`); a key repeated with a different value is the error. The config is not validate()d.
/// `driver` is benchdnn's --conv (Op::conv) or --deconv (Op::deconv): the meaning of the keys and the problem's op.
BenchdnnLine parse_benchdnn_line(const std::string &line, Op driver = Op::conv);

/// A deconv axis with its end split as the deconv reader splits it (above): the same pad_end - output_padding,
/// so the same deconv element for element; output_padding when the output is longer than with pad_end =
/// pad_begin by 1 to max(stride, dilation) - 1 rows, else 0 with the whole difference in pad_end.
SpatialAxis benchdnn_deconv_end(SpatialAxis axis);

} // namespace convcheck
