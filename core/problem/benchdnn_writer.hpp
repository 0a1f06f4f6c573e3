#pragma once
// A problem as oneDNN's benchdnn takes it on its command line (the reverse of benchdnn_descriptor.hpp), so a
// finding can be handed to oneDNN's maintainers in their own harness:
//
//   ./benchdnn --conv --dir=BWD_W --dt=f32 --stag=acdb --wtag=any --dtag=acdb mb2_ic4oc5_ih12oh12kh1sh1dh0ph0_iw6ow3kw1sw2dw0pw0
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

/// oneDNN's tag for weights in `layout`, grouped (g first) or not ("abcd" OIHW, "cdba" HWIO, "acdb" OHWI,
/// "decab" HWIGO, "abdec" GOHWI, by rank).
std::string benchdnn_weight_tag(WeightLayout layout, bool grouped, int64_t ndims);

/// benchdnn's --dir for a direction: FWD_D, BWD_D, BWD_W.
std::string benchdnn_dir(Direction direction);

/// The problem with each end padding no window reaches cut back to what benchdnn derives from the output size:
/// the same convolution, element for element.
Problem with_derived_pad_end(Problem problem);

} // namespace convcheck
