import Foundation
import Kalends
import KalendsTestSupport

/// Runs `body` with a new store in a temporary directory, removed afterwards.
@discardableResult
func withStore<R>(
  _ options: StoreOptions = StoreOptions(durability: .noSync), _ body: (Store, String) throws -> R
) throws -> R {
  let directory = TemporaryDirectory()
  return try withExtendedLifetime(directory) {
    try body(try Store.create(at: directory.storePath, options: options), directory.storePath)
  }
}

/// A ~100-byte note, as in the benchmarks.
func note(_ index: Int) -> RecordDraft {
  .annotation("note \(index): " + String(repeating: "x", count: 90))
}

/// The named fields of a record's payload (the first of a repeated field).
func namedFields(_ record: LogRecord) throws -> [String: PayloadValue] {
  Dictionary(
    try record.payload.describe(as: record.kind).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
}

/// Runs the asynchronous `body` with a new store in a temporary directory, removed afterwards.
@discardableResult
func withStore<R>(
  _ options: StoreOptions = StoreOptions(durability: .noSync), _ body: (Store, String) async throws -> R
) async throws -> R {
  let directory = TemporaryDirectory()
  let result = try await body(try Store.create(at: directory.storePath, options: options), directory.storePath)
  withExtendedLifetime(directory) {}
  return result
}
