// Injected bug `stride_loop_hang`, a hang: the dilated forward path walks the padded input rows with
//   for (row = 0; row != padded_height; row += stride_height)
// which ends only when the stride divides the padded height; otherwise `row` steps over the end and the loop
// never returns. It exists to show that a hanging strategy costs one verdict, not the campaign: the run is killed
// after --case-timeout and becomes a `timeout` finding, shrunk like any other.

#include <atomic>
#include <cstdint>

#include "core/run/strategy.hpp"
#include "oracles/loops/naive.hpp"

namespace convcheck {

namespace {

const Registration registration{{
    .name = "stride_loop_hang",
    .description = "naive loops whose dilated forward path walks rows with != (hangs unless stride divides height)",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run =
        [](const Case &c, Direction direction) {
          const Problem &g = c.problem;
          if (direction == Direction::output && g.height().dilation > 1) {
            const int64_t padded_height = g.height().in + g.height().pad_begin + g.height().pad_end;
            // A visible side effect per step keeps the compiler from assuming the loop terminates.
            static std::atomic<int64_t> rows_visited{0};
            for (int64_t row = 0; row != padded_height; row += g.height().stride)
              rows_visited.fetch_add(1, std::memory_order_relaxed);
          }
          return naive_result(g, c, direction);
        },
}};

} // namespace

} // namespace convcheck
