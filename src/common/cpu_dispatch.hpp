#pragma once

// SLUICE_TARGET_CLONES before a function builds it twice, for x86-64-v4 (AVX-512) and for the
// base instruction set, and the dynamic loader picks the one for the processor (an ifunc). Plain
// functions under sanitizers: the ifunc's resolver runs while the loader relocates the binary,
// before ThreadSanitizer's runtime is up, and its instrumented entry crashes the process.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define SLUICE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define SLUICE_SANITIZED 1
#endif
#endif

#if defined(SLUICE_SANITIZED) || !defined(__x86_64__)
#define SLUICE_TARGET_CLONES
#else
#define SLUICE_TARGET_CLONES [[gnu::target_clones("arch=x86-64-v4", "default")]]
#endif
