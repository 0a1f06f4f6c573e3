// Injected bug `scratch_unallocated`, a crash: a kernel stages the zero-padded input in a scratch buffer that it
// allocates only on its fast path (symmetric padding), but uses whenever there is any padding at all. With
// asymmetric padding it writes through a null pointer and the process dies with SIGSEGV. It exists to show that
// a crashing strategy costs one verdict, not the campaign: the crash is a `crash` finding, shrunk (in forked
// children) to the smallest config that still crashes, one element and one-sided padding.

#include <vector>

#include "core/run/strategy.hpp"
#include "oracles/loops/naive.hpp"

namespace convcheck {

namespace {

// The bug is the store below. Sanitizer builds would catch it as undefined behaviour and print a symbolized
// report per crash (hundreds in a run, minutes in all); uninstrumented, it dies by SIGSEGV as in a normal build.
__attribute__((no_sanitize("address", "undefined"))) void stage_padded_data(float *scratch) { scratch[0] = 0.0f; }

bool symmetric(const Problem &c) { return c.height().pad_begin == c.height().pad_end && c.width().pad_begin == c.width().pad_end; }
bool padded(const Problem &c) { return c.height().pad_begin + c.height().pad_end + c.width().pad_begin + c.width().pad_end > 0; }

const Registration registration{{
    .name = "scratch_unallocated",
    .description = "naive loops staging padded data in a buffer allocated only for symmetric padding (crashes)",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run =
        [](const Case &c, Direction direction) {
          if (direction != Direction::grad_data && padded(c.problem)) { // the two directions that read padded data
            std::vector<float> buffer(symmetric(c.problem) ? static_cast<size_t>(c[Role::data].size()) + 1 : 0);
            // volatile: the store must happen, as the real bug's does, rather than be reasoned away as UB.
            float *volatile scratch = buffer.empty() ? nullptr : buffer.data();
            stage_padded_data(scratch);
          }
          return naive_result(c.problem, c, direction);
        },
}};

} // namespace

} // namespace convcheck
