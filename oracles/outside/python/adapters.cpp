// convcheck's own example servers as named outside implementations (oracles/outside/adapter.hpp): NumPy's direct
// sums and the two fast-algorithm classes (docs/external.md).

#include "oracles/outside/adapter.hpp"

namespace convcheck {
namespace {

const char *numpy_probe = "import numpy; print('numpy', numpy.__version__)";

const AdapterRegistration numpy_server{{
    .name = "numpy_server",
    .description = "NumPy, float64 sums rounded to each tensor's format (oracles/outside/python/numpy_server.py; all "
                   "three directions, 1-D to 3-D, f32 and f64)",
    .interpreter = "/usr/bin/python3",
    .script = "oracles/outside/python/numpy_server.py",
    .install_set = "test",
    .version_probe = numpy_probe,
}};

const AdapterRegistration winograd_server{{
    .name = "winograd_server",
    .description = "Winograd F(4,3) in NumPy float32, declaring its class (oracles/outside/python/fast_server.py "
                   "winograd; output and grad_data, kernel 3, stride 1, dilation 1)",
    .interpreter = "/usr/bin/python3",
    .script = "oracles/outside/python/fast_server.py",
    .arguments = "winograd",
    .install_set = "test",
    .version_probe = numpy_probe,
}};

const AdapterRegistration fft_server{{
    .name = "fft_server",
    .description = "convolution by the FFT in complex64 through torch.fft, declaring its class "
                   "(oracles/outside/python/fast_server.py fft; all three directions)",
    .interpreter = "/usr/bin/python3",
    .script = "oracles/outside/python/fast_server.py",
    .arguments = "fft",
    .install_set = "test",
    .version_probe = "import torch; print('torch', torch.__version__)",
}};

} // namespace
} // namespace convcheck
