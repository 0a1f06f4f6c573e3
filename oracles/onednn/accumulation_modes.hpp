#pragma once
// oneDNN's accumulation modes (primitive_attr::set_accumulation_mode), a dispatch setting
// (core/numerics/dispatch_setting.hpp) drawn per case like the ISA cap, and the class each mode's result is judged
// under. Unlike the cap, a mode is an attribute of each primitive, so every value runs in the worker's own process.
//
// What each promises (oneDNN's "Primitive Attributes: accumulation mode", doc/programming_model/
// attributes_accumulation_mode.md, and dnnl_common_types.h), and so its class on a row of the precision table:
//   strict   the default: f32 accumulation for floating-point primitives                         direct
//   f32      f32 accumulators                                                                     direct
//   relaxed  as strict, but "some partial accumulators can be rounded to the src/dst datatype in memory"
//   any      "the fastest implementation available with one of the src/dst datatypes or a higher precision
//            accumulation datatype"
//            both: sums that may be kept in the narrowest of the primitive's src and dst formats (and the result's):
//            direct:storage:bf16 on the bfloat16 rows, direct:storage:f16 on the float16 ones, direct on float32
//   f16      f16 accumulators: direct:storage:f16 on the float16 rows; on a bfloat16 or float32 row not judged
//            (float16 sums overflow where the data's own format does not, which no bound here models)
// s32, the integer primitives' accumulator, is no value: convcheck has no integer rows. The case file keeps a case's
// mode as the root attribute `acc_mode`; "" (absent) is no attribute set, oneDNN's default (strict).

#include <string>

#include "core/numerics/algorithm.hpp"
#include "core/numerics/case.hpp"
#include "core/problem/direction.hpp"
#include "core/problem/problem.hpp"

namespace convcheck {

/// The setting's name: Case::settings key and case-file attribute.
inline constexpr const char *acc_mode_setting = "acc_mode";

/// The case's accumulation mode: the one it carries, else the drawn one; "" none set (oneDNN's default, strict).
std::string acc_mode_of(const Case &conv_case);

/// The class a result of `direction` computed under `mode` is judged under, or why none can judge it.
struct AccumulationClass {
  Algorithm algorithm;    ///< direct, or direct:storage:FORMAT
  std::string not_judged; ///< "" when `algorithm` judges it
};

/// What `mode` promises for `direction` of `problem` (the table above). `mode` is a value of the setting or "".
AccumulationClass accumulation_class(const std::string &mode, const Problem &problem, Direction direction);

/// "dnnl_accumulation_mode_relaxed" for "relaxed": the C API's name of a value ("" for "").
std::string onednn_accumulation_mode_c_name(const std::string &mode);

} // namespace convcheck
