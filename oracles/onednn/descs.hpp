#pragma once
// The memory descriptors of the `onednn` strategy (oracles/onednn/onednn.cpp): a problem in oneDNN's terms (Geometry), the
// format tag of each layout convcheck holds a tensor in, oneDNN's data type for each storage format, and the
// descriptors of the user's buffers and of the primitives on each path (oracles/onednn/onednn.hpp).

#include <cstdint>

#include <oneapi/dnnl/dnnl.hpp>

#include "core/problem/dtype.hpp"
#include "core/problem/op.hpp"
#include "core/problem/problem.hpp"
#include "oracles/onednn/onednn.hpp"

namespace convcheck::onednn_internal {

using dnnl::memory;
using Tag = memory::format_tag;

/// A problem in oneDNN's terms: tensors of rank 2 + ndims, and one stride, dilation and padding per axis.
struct Geometry {
  memory::dims data, weight, output;
  memory::dims strides, dilates, padding_l, padding_r;
  bool grouped = false;
};

/// `p` in oneDNN's terms.
Geometry geometry_of(const Problem &p);

/// The format tag that describes a buffer produced by to_data_layout / to_weight_layout, by rank (1, 2, 3).
/// Grouped weights split K into (g, o): HWIO [R, S, C/G, K] is then h,w,i,g,o ("hwigo"), OHWI [K, R, S, C/G] is
/// g,o,h,w,i ("gohwi"); likewise in 1-D and 3-D.
Tag data_tag(DataLayout layout, int64_t ndims);
/// The format tag of a weight buffer held in `layout` (a deconv's is its canonical IOHW per group).
Tag weight_tag(Op op, WeightLayout layout, bool grouped, int64_t ndims);

/// The weight layout the user hands over on `path`.
WeightLayout held_weight_layout(const Problem &config, OnednnPath path);

/// Memory descriptors of the three roles.
struct Descs {
  memory::desc data, weight, output;
};

/// oneDNN's data type for a storage format. A role's format is the same in every direction (a gradient has its
/// tensor's format, core/problem/direction.cpp), so one descriptor per role serves all three primitives: data is
/// src and diff_src, weight is weights and diff_weights, output is dst and diff_dst.
memory::data_type onednn_type(DType dtype);

/// How the user's buffers are laid out on `path`.
Descs user_descs(const Problem &config, const Geometry &g, OnednnPath path);

/// What the primitives are created with: the user's layouts, or format_tag::any where oneDNN chooses.
Descs primitive_descs(const Descs &user, const Geometry &g, OnednnPath path);

} // namespace convcheck::onednn_internal
