import CLMDB
import Foundation
import LMDB
import Testing

@Suite("LMDB errors")
struct LMDBErrorTests {
  static let lmdbCodes: [(Int32, LMDBError)] = [
    (MDB_KEYEXIST, .keyExists), (MDB_NOTFOUND, .notFound), (MDB_PAGE_NOTFOUND, .pageNotFound),
    (MDB_CORRUPTED, .corrupted), (MDB_PANIC, .panic), (MDB_VERSION_MISMATCH, .versionMismatch),
    (MDB_INVALID, .invalid), (MDB_MAP_FULL, .mapFull), (MDB_DBS_FULL, .databasesFull),
    (MDB_READERS_FULL, .readersFull), (MDB_TLS_FULL, .threadLocalStorageFull), (MDB_TXN_FULL, .transactionFull),
    (MDB_CURSOR_FULL, .cursorStackFull), (MDB_PAGE_FULL, .pageFull), (MDB_MAP_RESIZED, .mapResized),
    (MDB_INCOMPATIBLE, .incompatible), (MDB_BAD_RSLOT, .badReaderSlot), (MDB_BAD_TXN, .badTransaction),
    (MDB_BAD_VALSIZE, .badValueSize), (MDB_BAD_DBI, .badDatabaseHandle),
  ]

  @Test func everyLMDBReturnCodeHasItsOwnCase() {
    // Every code from MDB_KEYEXIST to MDB_LAST_ERRCODE is covered.
    #expect(Set(Self.lmdbCodes.map(\.0)) == Set(MDB_KEYEXIST...MDB_LAST_ERRCODE))
    for (code, error) in Self.lmdbCodes {
      #expect(LMDBError(code: code) == error)
      #expect(error.code == code)
    }
    #expect(Set(Self.lmdbCodes.map(\.1)).count == Self.lmdbCodes.count)
  }

  @Test func everyMessageSaysWhatToDoAndIsDistinct() {
    let errors = Self.lmdbCodes.map(\.1) + [.readOnly, .system(errno: ENOSPC), .system(errno: EACCES)]
    for error in errors {
      #expect(error.description.contains(" — "), "\(error) lacks advice")
    }
    #expect(Set(errors.map(\.description)).count == errors.count)
  }

  @Test func operatingSystemErrorsKeepTheirErrno() {
    for code in [ENOENT, EACCES, ENOSPC, EIO, ENOMEM, EROFS, EAGAIN, EINVAL, EFBIG] {
      let error = LMDBError(code: code)
      #expect(error == .system(errno: code))
      #expect(error.code == code)
      #expect(error.description.lowercased().contains(String(cString: strerror(code)).lowercased()))
    }
    #expect(LMDBError.readOnly.code == EACCES)
  }

  @Test func corruptionErrorsAreFlagged() {
    #expect(LMDBError.corrupted.indicatesCorruption)
    #expect(LMDBError.pageNotFound.indicatesCorruption)
    #expect(LMDBError.invalid.indicatesCorruption)
    #expect(!LMDBError.mapFull.indicatesCorruption)
    #expect(!LMDBError.system(errno: ENOSPC).indicatesCorruption)
  }
}
