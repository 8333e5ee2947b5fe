// The allocator our XNNPACK uses (passed to every xnn_initialize): blocks
// are charged to the interpreter whose call is running on the allocating
// thread (src/core/memory_budget.h), so packed weights, runtimes and
// workspaces XNNPACK allocates while the delegate prepares or invokes count
// against that interpreter's allocation limit. Past the limit it returns
// NULL and XNNPACK reports xnn_status_out_of_memory.
#ifndef TFLITE_C_SRC_DELEGATES_XNNPACK_ALLOCATOR_H_
#define TFLITE_C_SRC_DELEGATES_XNNPACK_ALLOCATOR_H_

#include <xnnpack.h>

namespace tflite_c {
namespace xnnpack {

// xnn_initialize(CountingAllocator()); the first call in the process wins,
// and ours are the only calls into this copy of XNNPACK.
const xnn_allocator* CountingAllocator();

}  // namespace xnnpack
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_DELEGATES_XNNPACK_ALLOCATOR_H_
