// Does a process running oneDNN 3.x grow per primitive it makes and runs? Each round makes a conv's primitive
// descriptor and primitive for one of 50 widths, runs it on buffers of its own (user pointers, as convcheck's),
// and frees everything; the resident set is printed every 4,000 rounds (docs/libraries/onednn.md).
//   cc -O1 onednn_rss_loop.c -I$D/include -L$D/lib -Wl,--disable-new-dtags,-rpath,$D/lib -ldnnl -o rss_loop
//   OCL_ICD_FILENAMES=$D/lib/libintelocl.so ./rss_loop [ROUNDS [VARY_WIDTH [RUN]]]   (D=venvs/onednn)
#define _GNU_SOURCE
#include <oneapi/dnnl/dnnl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CHECK(f) do { dnnl_status_t s_ = (f); if (s_ != dnnl_success) { printf("%s: status %d\n", #f, (int)s_); exit(2); } } while (0)
static long rss_kib(void) { FILE *f = fopen("/proc/self/status", "r"); char line[256]; long v = -1;
  while (fgets(line, sizeof line, f)) if (!strncmp(line, "VmRSS:", 6)) v = atol(line + 6); fclose(f); return v; }
int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 20000, vary = argc > 2 ? atoi(argv[2]) : 1, run = argc > 3 ? atoi(argv[3]) : 1;
  cpu_set_t one; CPU_ZERO(&one); CPU_SET(sched_getcpu(), &one); sched_setaffinity(0, sizeof one, &one);
  dnnl_engine_t engine; dnnl_stream_t stream;
  CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0)); CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
  for (int r = 0; r < rounds; ++r) {
    long IW = 8 + (vary ? r % 50 : 0);
    dnnl_dims_t sd = {1, 4, 6, IW}, wd = {4, 4, 3, 3}, dd = {1, 4, 4, IW - 2}, st = {1, 1}, dl = {0, 0}, p0 = {0, 0};
    dnnl_memory_desc_t s_md, w_md, d_md;
    CHECK(dnnl_memory_desc_create_with_tag(&s_md, 4, sd, dnnl_f32, dnnl_abcd));
    CHECK(dnnl_memory_desc_create_with_tag(&d_md, 4, dd, dnnl_f32, dnnl_abcd));
    CHECK(dnnl_memory_desc_create_with_tag(&w_md, 4, wd, dnnl_f32, dnnl_abcd));
    dnnl_primitive_desc_t pd; dnnl_primitive_t p;
    CHECK(dnnl_convolution_forward_primitive_desc_create(&pd, engine, dnnl_forward_inference, dnnl_convolution_direct, s_md, w_md, NULL, d_md, st, dl, p0, p0, NULL));
    CHECK(dnnl_primitive_create(&p, pd));
    if (run) {
      dnnl_memory_t sm, wm, dm;
      void *bs = malloc(dnnl_memory_desc_get_size(s_md) + 4096 * (r % 7)), *bw = malloc(dnnl_memory_desc_get_size(w_md) + 64 * (r % 5)), *bd = malloc(dnnl_memory_desc_get_size(d_md) + 128); CHECK(dnnl_memory_create(&sm, s_md, engine, bs)); CHECK(dnnl_memory_create(&wm, w_md, engine, bw));
      CHECK(dnnl_memory_create(&dm, d_md, engine, bd));
      dnnl_exec_arg_t a[3] = {{DNNL_ARG_SRC, sm}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_DST, dm}};
      CHECK(dnnl_primitive_execute(p, stream, 3, a)); CHECK(dnnl_stream_wait(stream));
      dnnl_memory_destroy(sm); dnnl_memory_destroy(wm); dnnl_memory_destroy(dm); free(bs); free(bw); free(bd);
    }
    dnnl_primitive_destroy(p); dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(s_md); dnnl_memory_desc_destroy(w_md); dnnl_memory_desc_destroy(d_md);
    if ((r + 1) % 4000 == 0) { printf("%d rounds: %ld KiB\n", r + 1, rss_kib()); fflush(stdout); }
  }
  return 0;
}
