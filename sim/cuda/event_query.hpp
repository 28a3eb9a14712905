// Reading cudaEventQuery's answer (internal to sim/cuda; a plain function so tests can check it
// without a device). Only cudaErrorNotReady means "not finished yet". Any other error is reported,
// including one an earlier call left pending in the runtime (an unchecked launch): clearing the
// last error unconditionally, as "not ready" handling is tempted to, would swallow it.
#pragma once

#include <cuda_runtime_api.h>

namespace physarum::cuda {

struct EventQueryOutcome {
  bool done = false;                 // the event has completed
  bool clear_last_error = false;     // call cudaGetLastError() to reset the runtime's error
  cudaError_t report = cudaSuccess;  // an error to report (throw), or cudaSuccess
};

// `query`: what cudaEventQuery returned; `pending`: what cudaPeekAtLastError() returned just after.
inline EventQueryOutcome classify_event_query(cudaError_t query, cudaError_t pending) {
  if (query == cudaSuccess) return {true, false, cudaSuccess};
  if (query == cudaErrorNotReady) {
    if (pending == cudaSuccess) return {false, false, cudaSuccess};
    if (pending == cudaErrorNotReady) return {false, true, cudaSuccess};  // our own "not ready": not an error
    return {false, true, pending};  // an unrelated error was pending: report it, once
  }
  return {false, true, query};
}

}  // namespace physarum::cuda
