import KalendsFormats

/// What a CalDAV and CardDAV account holds, found from the address a person gives (RFC 6764): a
/// bare host is asked at `/.well-known/caldav` and `/.well-known/carddav`; then the user's
/// principal (`current-user-principal`, RFC 5397), its calendar and address-book homes (RFC 4791
/// §6.2.1, RFC 6352 §7.1.1), and the collections in them.
public struct AccountDiscovery: Sendable {
  /// A calendar or an address book of the account.
  public struct Collection: Sendable, Hashable {
    /// What it holds.
    public enum Kind: String, Sendable, Hashable {
      case calendar, addressBook
    }

    public let kind: Kind
    /// Its absolute address.
    public let url: String
    /// Its `displayname`, else the last segment of its path.
    public let name: String
    /// Its `calendar-color` (Apple's), as the server gives it.
    public let color: String?
    /// The components a calendar takes (`VEVENT`, `VTODO`); empty for an address book or when the
    /// server does not say (then all).
    public let components: [String]
    /// Whether the user may change what it holds (`current-user-privilege-set` has `write` or
    /// `write-content`; `true` when the server does not say).
    public let writable: Bool
    /// Its `sync-token` (RFC 6578), when the server supports `sync-collection`.
    public let syncToken: String?
    /// Its `getctag` (CalendarServer's), when the server gives one: it changes whenever a member does.
    public var ctag: String? = nil
  }

  /// The user's principal, an absolute address.
  public let principal: String
  /// The calendar home, when the account has calendars.
  public let calendarHome: String?
  /// The address-book home, when the account has address books.
  public let addressBookHome: String?
  /// The collections in the homes, by kind then address.
  public let collections: [Collection]

  /// Finds the account at `address` (`https://dav.example.com`, a `.well-known` or a principal's
  /// address; `http://` on loopback for a server of one's own) as `user`.
  ///
  /// With `addressBooksOnly` (a CardDAV account) the bare host is asked at `/.well-known/carddav`
  /// first, and the principal's calendar home is left out: the account syncs its address books
  /// alone.
  public static func discover(
    _ address: String, user: String, credentials: AccountCredentials, timeout: Int = 30,
    addressBooksOnly: Bool = false
  ) async throws(AccountError) -> AccountDiscovery {
    let text = address.contains("://") ? address : "https://" + address
    guard let given = RemoteURL(text) else { throw .remote(.invalidAddress(address)) }
    let remote = DAVRemote(
      authorization: try credentials.authorization(user: user), timeout: timeout, limit: 16 << 20)
    // A bare host: the well-known addresses lead to the context path (RFC 6764 §5).
    var starts = [given]
    if given.target == "/" {
      let wellKnown = addressBooksOnly ? ["/.well-known/carddav"] : ["/.well-known/caldav", "/.well-known/carddav"]
      starts = wellKnown.compactMap { given.resolving($0) } + [given]
    }
    var principal: RemoteURL?
    var lastFailure: AccountError?
    for start in starts where principal == nil {
      do {
        let (responses, at) = try await remote.propfind(start, depth: 0, [.dav("current-user-principal")])
        let href = responses.first?.properties[.dav("current-user-principal")]?.child(.dav("href"))?.text.trimmed
        principal = href.flatMap { at.resolving($0) }
      } catch .refused(let status, let url) {
        throw .refused(status: status, url: url)
      } catch {
        lastFailure = error
      }
    }
    guard let principal else {
      throw lastFailure ?? .notDAV("\(given) names no current-user-principal")
    }
    let (homes, at) = try await remote.propfind(
      principal, depth: 0, [.caldav("calendar-home-set"), .carddav("addressbook-home-set")])
    let properties = homes.first?.properties ?? [:]
    func home(_ name: XMLName) -> RemoteURL? {
      guard let href = properties[name]?.child(.dav("href"))?.text.trimmed, !href.isEmpty else { return nil }
      return at.resolving(href)
    }
    let calendarHome = addressBooksOnly ? nil : home(.caldav("calendar-home-set"))
    let addressBookHome = home(.carddav("addressbook-home-set"))
    guard calendarHome != nil || addressBookHome != nil else {
      throw .notDAV(
        "the principal \(principal) has "
          + (addressBooksOnly ? "no address-book home" : "neither a calendar nor an address-book home"))
    }
    var collections: [Collection] = []
    var seen: Set<String> = []
    for home in [calendarHome, addressBookHome].compactMap({ $0 }) where seen.insert(home.description).inserted {
      do {
        collections += try await Self.collections(in: home, remote)
      } catch .refused(let status, _) where status == 403 {
        // The user may not list this home (a Kalends token without access to contacts): the
        // account has none of its collections to sync.
        continue
      }
    }
    let unique = Dictionary(collections.map { ($0.url, $0) }, uniquingKeysWith: { first, _ in first }).values
    return AccountDiscovery(
      principal: principal.description, calendarHome: calendarHome?.description,
      addressBookHome: addressBookHome?.description,
      collections: unique.sorted { ($0.kind.rawValue, $0.url) < ($1.kind.rawValue, $1.url) })
  }

  /// The calendars and address books directly in `home`.
  static func collections(in home: RemoteURL, _ remote: DAVRemote) async throws(AccountError) -> [Collection] {
    let (responses, at) = try await remote.propfind(
      home, depth: 1,
      [
        .dav("resourcetype"), .dav("displayname"), .dav("current-user-privilege-set"), .dav("sync-token"),
        XMLName(Namespace.apple, "calendar-color"), .caldav("supported-calendar-component-set"),
        XMLName(Namespace.calendarServer, "getctag"),
      ])
    return responses.compactMap { response in
      guard let url = at.resolving(response.href), let type = response.properties[.dav("resourcetype")] else {
        return nil
      }
      let kind: Collection.Kind
      if type.child(.caldav("calendar")) != nil {
        kind = .calendar
      } else if type.child(.carddav("addressbook")) != nil {
        kind = .addressBook
      } else {
        return nil
      }
      let privileges = response.properties[.dav("current-user-privilege-set")]
      let granted = Set(
        (privileges?.children(.dav("privilege")) ?? []).flatMap { $0.children.map(\.name.local) })
      let segment = url.target.split(separator: "/").last.map(String.init) ?? url.target
      let displayName = response.properties[.dav("displayname")]?.text.trimmed
      return Collection(
        kind: kind, url: url.description, name: displayName.flatMap { $0.isEmpty ? nil : $0 } ?? segment,
        color: response.properties[XMLName(Namespace.apple, "calendar-color")]?.text.trimmed,
        components: (response.properties[.caldav("supported-calendar-component-set")]?.children(.caldav("comp")) ?? [])
          .compactMap { $0.attributes["name"] },
        writable: privileges == nil || !granted.isDisjoint(with: ["write", "write-content", "all"]),
        syncToken: response.properties[.dav("sync-token")]?.text.trimmed,
        ctag: response.properties[XMLName(Namespace.calendarServer, "getctag")]?.text.trimmed.nilIfEmpty)
    }
  }
}
