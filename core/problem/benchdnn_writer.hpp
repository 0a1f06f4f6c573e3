#pragma once
// A problem as oneDNN's benchdnn takes it on its command line (the reverse of benchdnn_descriptor.hpp), so a
// finding can be handed to oneDNN's maintainers in their own harness:
//
//   ./benchdnn --conv --dir=BWD_W --dt=f32 --stag=acdb --wtag=any --dtag=acdb mb2_ic4oc5_ih12oh12kh1sh1dh0ph0_iw6ow3kw1sw2dw0pw0
//   ./benchdnn --deconv --dir=FWD_D --dt=f32 --stag=abcd --wtag=bacd --dtag=abcd mb1_ic3oc2_ih5oh10kh3sh2dh0ph1_iw4ow4kw1sw1dw0pw0
//
// A deconv is written for benchdnn's deconv driver in its own sizes (ih its input, oh its output, ic/oc its
// C_in/C_out); the output size carries the output_padding, which benchdnn does not spell, and its end padding is
// derived from it (benchdnn_descriptor.hpp says how convcheck reads it back).
//
// Every size is spelled out (mb too: benchdnn's default is 2), dilation counts from 0 (`dh`), and the padding given
// is the front/top/left one: benchdnn derives the other from the output size (desc_t::init_pad_r), so an end padding
// that no window reaches (past the last window's end) comes back smaller; the convolution is the same, element for
// element. Tags are oneDNN's letters over the dimensions in their logical order (a = N or G, ...).

#include <string>

#include "core/problem/direction.hpp"
#include "core/problem/problem.hpp"

namespace convcheck {

/// The descriptor, e.g. "mb2_g2ic4oc6_ih5oh3kh3sh2dh0ph1_iw7ow4kw2sw1dw0pw1". Throws InputError for what benchdnn
/// cannot spell: a crop at the beginning of an axis.
std::string benchdnn_descriptor(const Problem &problem);

/// oneDNN's tag for data in `layout` ("abcd" NCHW, "acdb" NHWC, by rank).
std::string benchdnn_data_tag(DataLayout layout, int64_t ndims);

/// oneDNN's tag for weights in `layout`, grouped (g first) or not, over oneDNN's dimensions [G,] O, I, spatial... for
/// either op: a conv's "abcd" OIHW, "cdba" HWIO, "acdb" OHWI, "decab" HWIGO, "abdec" GOHWI; a deconv's canonical
/// [C_in, C_out/G, k...] (IOHW per group) "bacd" iohw, grouped "acbde" giohw (the tags convcheck hands oneDNN's
/// deconvolution, oracles/onednn/descs.cpp), and its XIO and OXI the same permutations of that. Some
/// grouped deconv permutations ("debac") are tags oneDNN does not define.
std::string benchdnn_weight_tag(WeightLayout layout, bool grouped, int64_t ndims, Op op = Op::conv);

/// benchdnn's --dir for a direction: FWD_D, BWD_D, BWD_W.
std::string benchdnn_dir(Direction direction);

/// The problem as benchdnn's reader gives it back, the same op element for element: a conv with each end padding
/// no window reaches cut back to what benchdnn derives from the output size; a deconv with each end split between
/// pad_end and output_padding as the deconv reader splits it (benchdnn_deconv_end).
Problem with_derived_pad_end(Problem problem);

} // namespace convcheck
