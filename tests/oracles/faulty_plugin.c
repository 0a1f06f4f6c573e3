/* examples/plugin/direct_plugin.c with one fault, chosen by the environment variable CONVCHECK_TEST_PLUGIN_FAULT,
 * to test how convcheck takes every way a plugin can fail (tests/cmd/plugin_test.cpp):
 *   crash          grad_data segfaults            hang           grad_weight never returns
 *   error          grad_data returns an error     unwritten      grad_data writes nothing
 *   refuse         `unsupported` declines grad_weight of 3-D problems
 *   abi            the description says ABI version 99
 *   decline        the entry returns NULL (does not speak the version asked)
 *   v2             the entry speaks ABI version 2 only (built before output_padding), its ops still naming "deconv"
 *   no_output_padding  a deconv computed as if its output_padding were 0 (its output size from the formula
 *                  without it), as a library that ignores the argument: the output's last rows left unwritten,
 *                  and grad_output's rows there, which padding lets taps reach, never read
 *   bad_algorithm  the description declares the class "winograd:9"
 *   bad_kernels    the description declares kernels {-3}
 *   crash_at_load  the library segfaults as it is loaded
 * Built with CONVCHECK_TEST_NO_ENTRY, it exports no entry at all. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define convcheck_plugin_entry direct_plugin_entry
#include "../../examples/plugin/direct_plugin.c"
#undef convcheck_plugin_entry

static int fault(const char *name) {
  const char *chosen = getenv("CONVCHECK_TEST_PLUGIN_FAULT");
  return chosen != NULL && strcmp(chosen, name) == 0;
}

__attribute__((constructor)) static void on_load(void) {
  if (fault("crash_at_load")) raise(SIGSEGV);
}

static int faulty_run(const convcheck_problem *problem, convcheck_run *call) {
  if (fault("no_output_padding")) {
    convcheck_problem ignored = *problem;
    for (int i = 0; i < problem->ndims; ++i)
      ignored.out_size[i] -= problem->output_padding[i], ignored.output_padding[i] = 0;
    return run(&ignored, call);
  }
  if (strcmp(call->direction, "grad_data") == 0) {
    if (fault("crash")) raise(SIGSEGV);
    if (fault("error")) return snprintf(call->message, call->message_size, "out of workspace"), CONVCHECK_ERROR;
    if (fault("unwritten")) return CONVCHECK_OK;
  }
  if (strcmp(call->direction, "grad_weight") == 0 && fault("hang"))
    for (volatile int spin = 1; spin;) {
    }
  return run(problem, call);
}

static int faulty_unsupported(const convcheck_problem *problem, const char *direction, char *reason, size_t size) {
  if (fault("refuse") && problem->ndims == 3 && strcmp(direction, "grad_weight") == 0)
    return snprintf(reason, size, "no 3-D weight gradient yet"), 1;
  return 0;
}

#ifdef CONVCHECK_TEST_NO_ENTRY
/* Reached through nothing: kept so the library has the same code without the entry. */
const void *const faulty_plugin_functions[] = {(const void *)faulty_run, (const void *)faulty_unsupported};
#else
const convcheck_plugin *convcheck_plugin_entry(uint32_t abi_version) {
  static convcheck_plugin faulty;
  if (fault("decline") || (fault("v2") && abi_version != 2)) return NULL;
  faulty = *direct_plugin_entry(fault("v2") ? CONVCHECK_PLUGIN_ABI_VERSION : abi_version);
  if (fault("v2")) faulty.abi_version = 2; /* a version-2 description is a version-3 one: only the problem grew */
  faulty.name = "faulty_plugin";
  faulty.run = faulty_run;
  faulty.unsupported = faulty_unsupported;
  if (fault("abi")) faulty.abi_version = 99;
  static const int64_t negative[] = {-3, 0};
  if (fault("bad_algorithm")) faulty.algorithm = "winograd:9";
  if (fault("bad_kernels")) faulty.kernels = negative;
  return &faulty;
}
#endif
