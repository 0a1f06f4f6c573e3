// What a JIT code buffer's life costs on this machine, alone and with a second process doing the same on the
// other core: the loop oneDNN ran per kernel before oracles/onednn/code_pages.cpp (mmap read-write, write the
// code, mprotect it executable, run it, mprotect it back, munmap), and its parts.
//
//   cc -O2 bench/mapping_cost.c -o /tmp/mapping_cost && /tmp/mapping_cost
//
// Prints microseconds per iteration for each variant, run by one process and then by two at once.
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { iterations = 20000, length = 256 * 1024 };

static const char *const variants[] = {
    "mmap, write one page, munmap",
    "... and mprotect read-only before munmap",
    "... mprotect read-execute and run it (a JIT kernel)",
    "mmap read-write-execute, write, run, mprotect read-write, munmap (oneDNN 2.6)",
};

static double microseconds_per_iteration(int variant) {
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (int i = 0; i < iterations; ++i) {
    const int prot = PROT_READ | PROT_WRITE | (variant == 3 ? PROT_EXEC : 0);
    unsigned char *buffer = mmap(NULL, length, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buffer == MAP_FAILED) return -1;
    memset(buffer, 0xc3, 4096); // ret
    if (variant == 1) mprotect(buffer, length, PROT_READ);
    if (variant == 2) mprotect(buffer, length, PROT_READ | PROT_EXEC);
    if (variant >= 2) ((void (*)(void))buffer)();
    if (variant == 3) mprotect(buffer, length, PROT_READ | PROT_WRITE);
    munmap(buffer, length);
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  return ((end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec)) / 1e3 / iterations;
}

int main(void) {
  for (int variant = 0; variant < 4; ++variant) {
    const double alone = microseconds_per_iteration(variant);
    int pipe_ends[2];
    if (pipe(pipe_ends) != 0) return 2;
    for (int child = 0; child < 2; ++child)
      if (fork() == 0) {
        const double each = microseconds_per_iteration(variant);
        if (write(pipe_ends[1], &each, sizeof each) != sizeof each) _exit(2);
        _exit(0);
      }
    double pair[2] = {0, 0};
    for (int child = 0; child < 2; ++child) {
      if (read(pipe_ends[0], &pair[child], sizeof pair[child]) != sizeof pair[child]) return 2;
      wait(NULL);
    }
    printf("%-80s alone %6.1f us, two at once %6.1f and %6.1f us\n", variants[variant], alone, pair[0], pair[1]);
  }
  return 0;
}
