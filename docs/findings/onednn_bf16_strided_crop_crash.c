// oneDNN 3.x: the bf16 data gradient of a 1-D channels-last conv whose width is cropped at the end dies of SIGSEGV
// (docs/findings.md, "oneDNN 3.13's brgconv_strided bf16 data gradient crashes on a width cropped at the end").
// oneDNN's C API alone, on one CPU (as convcheck runs it), at ISA cap AVX512_CORE_BF16. Default: N1 C1 K1, iw 12,
// kernel 3, stride 3, padding 1 at the left and -2 at the right (a crop smaller than the stride, which oneDNN takes).
//   D=/path/to/onednn   (a oneDNN 3.x build, or the onednn and onednn-devel wheels' prefix)
//   cc -O1 onednn_bf16_strided_crop_crash.c -I$D/include -L$D/lib -Wl,--disable-new-dtags,-rpath,$D/lib -ldnnl -o crash
//   OCL_ICD_FILENAMES=$D/lib/libintelocl.so ./crash [PAD_RIGHT [IW]]
// Prints the kernel, then "returned" if the primitive returns. Exit status: 0 returned; 139 (SIGSEGV) the bug shows;
// 2 oneDNN refused or this host has no AVX512-BF16.
#define _GNU_SOURCE
#include <oneapi/dnnl/dnnl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#define CHECK(f) do { dnnl_status_t s_ = (f); if (s_ != dnnl_success) { printf("%s: status %d\n", #f, (int)s_); exit(2); } } while (0)
int main(int argc, char **argv) {
  long IW = 12, KW = 3, SW = 3, PL = 1, PR = -2, C = 1, K = 1;
  if (argc > 1) PR = atol(argv[1]);
  if (argc > 2) IW = atol(argv[2]);
  long OW = (IW + PL + PR - KW) / SW + 1;
  cpu_set_t one; CPU_ZERO(&one); CPU_SET(sched_getcpu(), &one); sched_setaffinity(0, sizeof one, &one);
  CHECK(dnnl_set_max_cpu_isa(dnnl_cpu_isa_avx512_core_bf16));
  if (dnnl_get_effective_cpu_isa() != dnnl_cpu_isa_avx512_core_bf16) { printf("this host has no AVX512-BF16\n"); return 2; }
  dnnl_engine_t engine; dnnl_stream_t stream;
  CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0)); CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
  dnnl_dims_t sd = {1, C, IW}, wd = {K, C, KW}, dd = {1, K, OW}, st = {SW}, dl = {0}, pl = {PL}, pr = {PR};
  dnnl_memory_desc_t s_md, w_md, d_md;
  CHECK(dnnl_memory_desc_create_with_tag(&s_md, 3, sd, dnnl_bf16, dnnl_acb));
  CHECK(dnnl_memory_desc_create_with_tag(&d_md, 3, dd, dnnl_bf16, dnnl_acb));
  CHECK(dnnl_memory_desc_create_with_tag(&w_md, 3, wd, dnnl_bf16, dnnl_format_tag_any));
  dnnl_primitive_desc_t fwd, bwd;
  CHECK(dnnl_convolution_forward_primitive_desc_create(&fwd, engine, dnnl_forward_training, dnnl_convolution_direct, s_md, w_md, NULL, d_md, st, dl, pl, pr, NULL));
  CHECK(dnnl_convolution_backward_data_primitive_desc_create(&bwd, engine, dnnl_convolution_direct, s_md, w_md, d_md, st, dl, pl, pr, fwd, NULL));
  const char *impl; CHECK(dnnl_primitive_desc_query(bwd, dnnl_query_impl_info_str, 0, &impl));
  printf("iw%ld kw%ld sw%ld pl%ld pr%ld ow%ld: backward_data on %s\n", IW, KW, SW, PL, PR, OW, impl); fflush(stdout);
  const_dnnl_memory_desc_t wq = dnnl_primitive_desc_query_md(bwd, dnnl_query_weights_md, 0);
  const_dnnl_memory_desc_t sp = dnnl_primitive_desc_query_md(bwd, dnnl_query_scratchpad_md, 0);
  dnnl_memory_t ds, w, dd_m, scratch;
  CHECK(dnnl_memory_create(&ds, s_md, engine, DNNL_MEMORY_ALLOCATE));
  CHECK(dnnl_memory_create(&w, wq, engine, DNNL_MEMORY_ALLOCATE));
  CHECK(dnnl_memory_create(&dd_m, d_md, engine, DNNL_MEMORY_ALLOCATE));
  CHECK(dnnl_memory_create(&scratch, sp, engine, DNNL_MEMORY_ALLOCATE));
  dnnl_primitive_t p; CHECK(dnnl_primitive_create(&p, bwd));
  dnnl_exec_arg_t a[4] = {{DNNL_ARG_DIFF_SRC, ds}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DIFF_DST, dd_m}, {DNNL_ARG_SCRATCHPAD, scratch}};
  CHECK(dnnl_primitive_execute(p, stream, 4, a)); CHECK(dnnl_stream_wait(stream));
  printf("returned\n");
  return 0;
}
