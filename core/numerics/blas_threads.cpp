#include "core/numerics/blas_threads.hpp"

#include <cblas.h>

// The pthread build's own fork handler; weak, so an OpenMP build, without it, links too.
extern "C" int blas_thread_shutdown_(void) __attribute__((weak));

namespace convcheck {

void use_one_blas_thread() {
  static const bool done = [] {
    openblas_set_num_threads(1);
    return true;
  }();
  (void)done;
}

namespace {

// OpenBLAS (Debian's pthread build) starts a thread per extra core when the library loads, and such a thread spins
// (sched_yield) for a while before it sleeps. convcheck never hands a GEMM to them, so they are stopped as the
// program starts: spinning, a thread takes the other core, and merely existing as a second thread of the process,
// it makes every page-protection change (oneDNN's JIT code, large frees) interrupt that core to flush its TLB,
// which a virtual machine under load pays dearly (docs/performance.md, "Machine figures behind the code"). This
// must happen once, before the workers are forked: openblas_set_num_threads re-creates a pool stopped by a fork
// (OpenBLAS 0.3.21's lazy re-init after fork), so a worker's first call would start a spinning thread again.
const bool blas_threads_stopped = [] {
  use_one_blas_thread();
  if (blas_thread_shutdown_ != nullptr) blas_thread_shutdown_();
  return true;
}();

} // namespace

} // namespace convcheck
