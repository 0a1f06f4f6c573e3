// JAX on XLA:CPU as outside implementations (oracles/outside/adapter.hpp): jax_server.py jit-compiles each case as
// one JAX function (the forward conv or conv_transpose by lax.conv_general_dilated, both gradients by jax.vjp) and
// runs it on XLA:CPU, in the pinned venv scripts/install-deps.sh jax makes (docs/libraries/jax.md). The three rows
// differ in the XLA:CPU convolution path, as the optimized HLO shows (oracles/jax/xla_paths.py).

#include "oracles/outside/adapter.hpp"

namespace convcheck {
namespace {

const char *jax_probe = "import jax, jaxlib; print('jax', jax.__version__, 'jaxlib', jaxlib.__version__)";

const AdapterRegistration jax{{
    .name = "jax",
    .description = "JAX on XLA:CPU as shipped: YNNPACK's convolution fusion where XLA takes the convolution into it, "
                   "Eigen's or XLA's own loops elsewhere (oracles/jax/jax_server.py jax; conv and deconv, every "
                   "direction, 1-D to 3-D, f32, f64, bf16 and f16 rows)",
    .interpreter = "venvs/jax/bin/python",
    .script = "oracles/jax/jax_server.py",
    .arguments = "jax",
    .install_set = "jax",
    .version_probe = jax_probe,
}};

const AdapterRegistration jax_eigen{{
    .name = "jax_eigen",
    .description = "JAX on XLA:CPU with the YNNPACK convolution fusion off (XLA_FLAGS "
                   "--xla_cpu_experimental_ynn_fusion_type=-individual_convolution): Eigen's spatial convolution for "
                   "f16/f32, XLA's emitted loops for f64 and reversed kernels (oracles/jax/jax_server.py jax_eigen)",
    .interpreter = "venvs/jax/bin/python",
    .script = "oracles/jax/jax_server.py",
    .arguments = "jax_eigen",
    .install_set = "jax",
    .version_probe = jax_probe,
}};

const AdapterRegistration jax_ynn{{
    .name = "jax_ynn",
    .description = "JAX on XLA:CPU judged only where the optimized HLO puts a direction's convolution in a "
                   "__ynn_fusion (YNNPACK; 2-D convs, the other directions skipped naming the path XLA chose) "
                   "(oracles/jax/jax_server.py jax_ynn)",
    .interpreter = "venvs/jax/bin/python",
    .script = "oracles/jax/jax_server.py",
    .arguments = "jax_ynn",
    .install_set = "jax",
    .version_probe = jax_probe,
}};

} // namespace
} // namespace convcheck
