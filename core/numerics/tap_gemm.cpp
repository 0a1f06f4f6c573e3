#include "core/numerics/tap_gemm.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/numerics/blas_threads.hpp"
#include "core/numerics/naive_loops.hpp"
#include "core/tensor/tensor.hpp"

namespace convcheck {

namespace {

// Dimensions of one group's GEMMs.
struct GemmShape {
  int64_t groups, batch, in_per_group, out_per_group; // G, N, C/G, K/G
  int64_t image, outputs, taps;                       // D*H*W, OD*P*Q, T*R*S
  explicit GemmShape(const Problem &p)
      : groups(p.groups), batch(p.batch), in_per_group(p.in_channels_per_group()),
        out_per_group(p.out_channels_per_group()), image(p.depth().in * p.height().in * p.width().in),
        outputs(p.depth().out() * p.height().out() * p.width().out()),
        taps(p.depth().kernel * p.height().kernel * p.width().kernel) {}
};

// A run of `count` output positions of one image, starting at `output`, whose tap reads the input positions
// input, input + stride_w, ... (all inside the input).
struct TapRun {
  int64_t output, input, count;
};

// The runs of one tap (t, r, s), covering every output position whose tap lies inside the input.
std::vector<TapRun> tap_runs(const Problem &p, int64_t t, int64_t r, int64_t s) {
  const SpatialAxis &dd = p.depth(), &hh = p.height(), &ww = p.width();
  const TapColumns column = output_columns_per_tap(p)[static_cast<size_t>(s)];
  std::vector<TapRun> runs;
  if (column.outputs.size() <= 0) return runs;
  for (int64_t od = 0; od < dd.out(); ++od) {
    const int64_t z = od * dd.stride - dd.pad_begin + t * dd.dilation;
    if (z < 0 || z >= dd.in) continue;
    for (int64_t oh = 0; oh < hh.out(); ++oh) {
      const int64_t y = oh * hh.stride - hh.pad_begin + r * hh.dilation;
      if (y < 0 || y >= hh.in) continue;
      runs.push_back({(od * hh.out() + oh) * ww.out() + column.outputs.first, (z * hh.in + y) * ww.in + column.first_input,
                      column.outputs.size()});
    }
  }
  return runs;
}

// X_t of one image and group: rows of `outputs` values, one per input channel of the group, 0 outside the input.
void gather(const std::vector<TapRun> &runs, int64_t stride, const double *image, const GemmShape &shape,
            double *rows) {
  std::fill(rows, rows + shape.in_per_group * shape.outputs, 0.0);
  for (int64_t c = 0; c < shape.in_per_group; ++c) {
    const double *source = image + c * shape.image;
    double *row = rows + c * shape.outputs;
    for (const TapRun &run : runs)
      for (int64_t j = 0; j < run.count; ++j) row[run.output + j] = source[run.input + j * stride];
  }
}

// The inverse: adds each row's values into the input positions the tap reads.
void scatter_add(const std::vector<TapRun> &runs, int64_t stride, const double *rows, const GemmShape &shape,
                 double *image) {
  for (int64_t c = 0; c < shape.in_per_group; ++c) {
    double *target = image + c * shape.image;
    const double *row = rows + c * shape.outputs;
    for (const TapRun &run : runs)
      for (int64_t j = 0; j < run.count; ++j) target[run.input + j * stride] += row[run.output + j];
  }
}

// Taps go to the GEMMs in blocks of consecutive kernel columns s of one (t, r): all S of them when the group has
// few input channels (C/G * S <= 64, such as the C/G = 3 of ResNet's and AlexNet's first layers), so that a GEMM's
// inner dimension is C/G * S rather than a handful; one tap otherwise, which keeps the gathered rows small.
// `visit(first, runs)` gets the flattened (t, r, s) index of the block's first tap and the runs of each of its taps.
int64_t taps_per_block(const Problem &p) {
  return p.in_channels_per_group() * p.width().kernel <= 64 ? p.width().kernel : 1;
}

template <class Visit> void for_each_tap_block(const Problem &p, Visit visit) {
  const int64_t S = p.width().kernel, block = taps_per_block(p);
  for (int64_t t = 0; t < p.depth().kernel; ++t)
    for (int64_t r = 0; r < p.height().kernel; ++r)
      for (int64_t s = 0; s < S; s += block) {
        std::vector<std::vector<TapRun>> runs;
        bool any = false;
        for (int64_t j = s; j < s + block; ++j) {
          runs.push_back(tap_runs(p, t, r, j));
          any = any || !runs.back().empty();
        }
        if (any) visit((t * p.height().kernel + r) * S + s, runs);
      }
}

// The weights of group g as [k][tap][c], from weight[g*K/G + k][c][tap]: a block of taps of one k is then one run
// of (tap, c), the A of the GEMMs with leading dimension taps * C/G.
// Buffers every element of which is written before it is read: not zeroed first (core/tensor/tensor.hpp).
using Scratch = Tensor::Buffer<double>;

Scratch weights_by_tap(const double *weight, int64_t g, const GemmShape &shape) {
  Scratch by_tap(static_cast<size_t>(shape.taps * shape.out_per_group * shape.in_per_group));
  const double *group = weight + g * shape.out_per_group * shape.in_per_group * shape.taps;
  for (int64_t k = 0; k < shape.out_per_group; ++k)
    for (int64_t c = 0; c < shape.in_per_group; ++c)
      for (int64_t tap = 0; tap < shape.taps; ++tap)
        by_tap[static_cast<size_t>((k * shape.taps + tap) * shape.in_per_group + c)] =
            group[(k * shape.in_per_group + c) * shape.taps + tap];
  return by_tap;
}

// C (m x n, row-major) = A' B' + beta C, with A' = A or A^T and B' = B or B^T as stored row-major.
void gemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, const double *a, int64_t lda,
          const double *b, int64_t ldb, double beta, double *c, int64_t ldc) {
  const auto i = [](int64_t v) { return static_cast<blasint>(v); };
  cblas_dgemm(CblasRowMajor, transpose_a ? CblasTrans : CblasNoTrans, transpose_b ? CblasTrans : CblasNoTrans, i(m),
              i(n), i(k), 1.0, a, i(lda), b, i(ldb), beta, c, i(ldc));
}

// One direction's value and magnitude are the same GEMMs over the inputs and over their absolute values.
struct Operands {
  const double *a, *b;
  double *result;
};

// The tap of a 1x1 kernel with unit strides and no padding reads every input position as the output position of
// the same index: X_t is the image itself.
bool reads_in_place(const Problem &p) {
  return std::all_of(p.axes.begin(), p.axes.end(), [](const SpatialAxis &a) {
    return a.kernel == 1 && a.stride == 1 && a.pad_begin == 0 && a.pad_end == 0;
  });
}

// The rows of a block of taps: block * C/G rows of `outputs` values, tap-major. Sized for the largest block.
Scratch block_rows(const Problem &p, const GemmShape &shape) {
  return Scratch(static_cast<size_t>(taps_per_block(p) * shape.in_per_group * shape.outputs));
}

// The stacked X_t of a block of taps: each tap's rows below the previous tap's.
void gather_block(const Problem &p, const std::vector<std::vector<TapRun>> &runs, const double *image,
                  const GemmShape &shape, double *rows) {
  for (size_t j = 0; j < runs.size(); ++j)
    gather(runs[j], p.width().stride, image, shape, rows + static_cast<int64_t>(j) * shape.in_per_group * shape.outputs);
}

void forward(const Problem &p, const GemmShape &shape, const Operands &use) {
  const bool in_place = reads_in_place(p);
  Scratch rows = in_place ? Scratch() : block_rows(p, shape);
  const int64_t lda = shape.taps * shape.in_per_group;
  for (int64_t g = 0; g < shape.groups; ++g) {
    const Scratch weights = weights_by_tap(use.b, g, shape);
    for_each_tap_block(p, [&](int64_t first, const std::vector<std::vector<TapRun>> &runs) {
      const auto taps = static_cast<int64_t>(runs.size());
      for (int64_t n = 0; n < shape.batch; ++n) {
        const double *image = use.a + (n * p.in_channels + g * shape.in_per_group) * shape.image;
        if (!in_place) gather_block(p, runs, image, shape, rows.data());
        gemm(false, false, shape.out_per_group, shape.outputs, taps * shape.in_per_group,
             weights.data() + first * shape.in_per_group, lda, in_place ? image : rows.data(), shape.outputs, 1.0,
             use.result + (n * p.out_channels + g * shape.out_per_group) * shape.outputs, shape.outputs);
      }
    });
  }
}

void grad_data(const Problem &p, const GemmShape &shape, const Operands &use) {
  Scratch rows = block_rows(p, shape);
  const int64_t lda = shape.taps * shape.in_per_group;
  for (int64_t g = 0; g < shape.groups; ++g) {
    const Scratch weights = weights_by_tap(use.b, g, shape);
    for_each_tap_block(p, [&](int64_t first, const std::vector<std::vector<TapRun>> &runs) {
      const auto taps = static_cast<int64_t>(runs.size());
      for (int64_t n = 0; n < shape.batch; ++n) {
        gemm(true, false, taps * shape.in_per_group, shape.outputs, shape.out_per_group,
             weights.data() + first * shape.in_per_group, lda,
             use.a + (n * p.out_channels + g * shape.out_per_group) * shape.outputs, shape.outputs, 0.0, rows.data(),
             shape.outputs);
        for (int64_t j = 0; j < taps; ++j)
          scatter_add(runs[static_cast<size_t>(j)], p.width().stride,
                      rows.data() + j * shape.in_per_group * shape.outputs, shape,
                      use.result + (n * p.in_channels + g * shape.in_per_group) * shape.image);
      }
    });
  }
}

void grad_weight(const Problem &p, const GemmShape &shape, const Operands &use) {
  const bool in_place = reads_in_place(p);
  Scratch rows = in_place ? Scratch() : block_rows(p, shape);
  const int64_t ldc = shape.taps * shape.in_per_group;
  std::vector<double> by_tap(static_cast<size_t>(shape.taps * shape.out_per_group * shape.in_per_group));
  for (int64_t g = 0; g < shape.groups; ++g) {
    std::fill(by_tap.begin(), by_tap.end(), 0.0);
    for_each_tap_block(p, [&](int64_t first, const std::vector<std::vector<TapRun>> &runs) {
      const auto taps = static_cast<int64_t>(runs.size());
      for (int64_t n = 0; n < shape.batch; ++n) {
        const double *image = use.b + (n * p.in_channels + g * shape.in_per_group) * shape.image;
        if (!in_place) gather_block(p, runs, image, shape, rows.data());
        gemm(false, true, shape.out_per_group, taps * shape.in_per_group, shape.outputs,
             use.a + (n * p.out_channels + g * shape.out_per_group) * shape.outputs, shape.outputs,
             in_place ? image : rows.data(), shape.outputs, 1.0, by_tap.data() + first * shape.in_per_group, ldc);
      }
    });
    // [k][tap][c] back to the weight's [k][c][tap].
    double *group = use.result + g * shape.out_per_group * shape.in_per_group * shape.taps;
    for (int64_t k = 0; k < shape.out_per_group; ++k)
      for (int64_t tap = 0; tap < shape.taps; ++tap)
        for (int64_t c = 0; c < shape.in_per_group; ++c)
          group[(k * shape.in_per_group + c) * shape.taps + tap] =
              by_tap[static_cast<size_t>((k * shape.taps + tap) * shape.in_per_group + c)];
  }
}

} // namespace

int64_t tap_gemm_multiply_adds(const Problem &p) {
  const GemmShape shape(p);
  return shape.batch * shape.groups * shape.out_per_group * shape.in_per_group * shape.taps * shape.outputs;
}

bool tap_gemm_pays_off(const Problem &p) {
  // Below these a GEMM call's fixed cost and the gathers outweigh the multiply-adds they speed up.
  return std::min(p.in_channels_per_group(), p.out_channels_per_group()) >= tap_gemm_min_channels &&
         tap_gemm_multiply_adds(p) >= tap_gemm_min_multiply_adds;
}

void tap_gemm_direction(const Problem &p, Direction direction, const double *a, const double *b, const double *abs_a,
                        const double *abs_b, double *value, double *magnitude) {
  use_one_blas_thread();
  const GemmShape shape(p);
  for (const Operands &use : {Operands{a, b, value}, Operands{abs_a, abs_b, magnitude}}) switch (direction) {
    case Direction::output: forward(p, shape, use); break;
    case Direction::grad_data: grad_data(p, shape, use); break;
    case Direction::grad_weight: grad_weight(p, shape, use); break;
    }
}

} // namespace convcheck
