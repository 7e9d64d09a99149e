//! Hints to the processor's caches: fetching what a loop will read a few
//! steps later, so that the misses of a walk in random order (sorted
//! entries, their names on the heap) overlap instead of following one
//! another. A hint changes no result; where there is none it does nothing.

/// Asks for the memory of `item` (its first cache line) to be brought
/// into the caches.
#[inline(always)]
pub fn prefetch<T: ?Sized>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch never faults, and reads nothing the program
        // sees; the address is a valid reference's anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast::<i8>()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
