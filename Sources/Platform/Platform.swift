// The C library of the platform, imported once for every module that calls it directly (file
// descriptors, errno, clocks, mmap): `internal import Platform` instead of a `#if canImport` block
// in each file.
#if canImport(Glibc)
  @_exported public import Glibc
#elseif canImport(Musl)
  @_exported public import Musl
#elseif canImport(Darwin)
  @_exported public import Darwin
#endif
