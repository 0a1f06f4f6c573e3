#pragma once
// OpenBLAS's threads in convcheck's processes. Every GEMM convcheck makes (the tap-GEMM reference, `im2col`) runs
// on the calling thread: a case runs on one thread per worker process, one worker per core, so OpenBLAS's own
// threads would only oversubscribe the cores.

namespace convcheck {

/// Makes OpenBLAS run every call on the calling thread. Call before a GEMM; after the first call it does nothing.
void use_one_blas_thread();

} // namespace convcheck
