#pragma once
// `onednn`: oneDNN's convolution primitives (oracles/onednn/onednn.cpp). A case reaches oneDNN by one of three paths,
// chosen from (seed, case index) so that shrinking and `repro` keep the path of the case they replay; tests run
// every path on every config.

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "core/numerics/algorithm.hpp"
#include "core/numerics/case.hpp"
#include "core/problem/direction.hpp"
#include "core/run/strategy.hpp"

namespace convcheck {

enum class OnednnPath {
  /// Data and grad_output in the case's layout, weights in the plain layout oneDNN's plain-layout kernels read
  /// for it (OIHW with NCHW, as PyTorch hands them; HWIO with NHWC, as TensorFlow does; likewise OIW/WIO and
  /// OIDHW/DHWIO in 1-D and 3-D): no reorders.
  plain,
  /// Data and grad_output in the case's layout, weights format_tag::any (the case's weight reordered into
  /// oneDNN's choice): PyTorch's mkldnn path; with NHWC it reaches the brgemm convolutions.
  any_weights,
  /// Every tensor format_tag::any: oneDNN's JIT direct kernels in blocked layouts (nChw16c, OIhw16i16o, ...),
  /// with reorders from and to the case's layouts.
  blocked,
};

/// "plain", "any_weights", "blocked".
std::string to_string(OnednnPath path);

/// The convolution algorithm oneDNN is asked for (dnnl::algorithm::convolution_direct, _auto): `onednn` asks for
/// direct, `onednn_auto` for auto (oracles/onednn/onednn_auto.cpp).
enum class OnednnAlgorithm : uint8_t { direct, automatic };

/// "3.13.2": the library's own version, as it reports it at run time.
std::string onednn_version();

/// The strategy that runs oneDNN with `algorithm`: onednn (direct), onednn_auto.
std::string onednn_strategy_name(OnednnAlgorithm algorithm);

/// The algorithm class of a oneDNN implementation by its name (impl_info_str): direct, or nothing for a Winograd
/// kernel, whose transforms convcheck is not told (its result cannot be judged; oneDNN 3.x's CPU engine has none).
std::optional<Algorithm> onednn_algorithm_class(const std::string &implementation);

/// The path `conv_case` takes: a hash of its seed and case index (see onednn.cpp for the proportions and why).
OnednnPath onednn_path(const Case &conv_case);

/// All three directions through `path` under the case's accumulation mode (oracles/onednn/accumulation_modes.hpp:
/// carried or drawn), each in canonical layout and declaring the class the mode promises, or why it has none. A
/// problem oneDNN refuses (a crop it does not take, oracles/onednn/skips.cpp), or refuses only under the case's
/// mode, fails every direction with oneDNN's error; a low-precision one it has no kernel for is skipped with the
/// reason. With `algorithm` auto, each result declares the class of the kernel oneDNN ran (onednn_algorithm_class).
/// `run_held_back` runs the directions its known bugs (known_bugs.cpp) would hold back (Asked, core/run/strategy.hpp).
RunResults onednn_results(const Case &conv_case, OnednnPath path, OnednnAlgorithm algorithm = OnednnAlgorithm::direct,
                          bool run_held_back = false);

/// The weight layout the user hands oneDNN on `path` (the plain path holds them as oneDNN's plain kernels read them).
WeightLayout onednn_weight_layout(const Problem &config, OnednnPath path);

/// oneDNN's name for the implementation `direction` gets on `path` (impl_info_str) under the accumulation mode
/// `acc_mode` ("" none set; oracles/onednn/accumulation_modes.hpp), without running it.
std::string onednn_implementation(const Problem &config, Direction direction, OnednnPath path,
                                  OnednnAlgorithm algorithm = OnednnAlgorithm::direct, const std::string &acc_mode = "");

/// Why oneDNN takes no convolution descriptor for the padding of `problem` ("" when it does): it takes a crop only
/// at the end of an axis and smaller than the stride (support/onednn_skips.cpp says how that was measured).
std::string onednn_refused_padding(const Problem &problem);

} // namespace convcheck
