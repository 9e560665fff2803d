import Hummingbird
import Kalends
import KalendsFormats
import KalendsServer

/// A collection of the DAV space as WebDAV's generic methods see it — its members by name, their
/// versions and bodies, conditional writes and removals, its changes after a sync token, and how
/// it writes its members' responses — whatever its members are: a calendar's objects
/// (``CalendarCollection``) or an address book's cards (``AddressBookCollection``). GET, PUT and
/// DELETE of a member, `sync-collection` and the multiget reports are written once, against this
/// protocol (``DAVMiddleware/getMember(_:in:_:)``, ``DAVMiddleware/putMember(_:named:in:_:)``,
/// ``DAVMiddleware/deleteMember(_:in:_:)``, ``DAVMiddleware/syncCollection(_:_:in:)``,
/// ``DAVMiddleware/multiget(_:_:in:)``).
///
/// A collection is read as the app it was resolved for: every member it returns is one that app
/// sees, read by its session (``use``).
protocol DAVCollection: Sendable {
  /// What the collection holds: the resources its reports answer.
  associatedtype Member: Sendable
  /// What a PUT stores in it, parsed from the request's body.
  associatedtype Draft: Sendable

  /// The app's use of the collection: its session, and how its reads are recorded.
  var use: StoreServer.AppUse { get }

  /// The collection's href as the request named it: a truncated report's request-URI (`507`).
  var href: String { get }

  /// The name of the member `path` names when it is a member of this collection, `nil` otherwise
  /// (another collection's, or no member's: a multiget answers `404` for it).
  func memberName(_ path: DAVPath) -> String?

  /// The href of the member named `name`.
  func memberHref(_ name: String) -> String

  /// The members named `names`, in their order, `nil` where none is; read inside
  /// ``StoreServer/withStore(_:_:)``, in one snapshot.
  func members(named names: [String]) throws -> [Member?]

  /// The version of `member` its entity tag is made from.
  func version(of member: Member) -> LogPosition

  /// The body GET answers for `member` (empty for HEAD), with its media type, as `request`
  /// accepts it.
  func representation(of member: Member, for request: Request) -> (contentType: String, text: String)

  /// Stores `draft` under `name` when `condition` holds, in one transaction: whether it was new.
  /// Called inside ``StoreServer/withStore(_:_:)``.
  func store(_ draft: Draft, named name: String, condition: ObjectCondition) throws(StoreError) -> Bool

  /// The precondition a PUT whose `UID` another member holds fails (`no-uid-conflict`).
  var uidConflict: XMLName { get }

  /// Removes the member named `name` when `condition` holds, in one transaction. Called inside
  /// ``StoreServer/withStore(_:_:)``.
  func remove(named name: String, condition: ObjectCondition) throws

  /// The members changed after `position` (all of them for `nil`), the names of those removed,
  /// and the position the changes reach; at most `limit` members, then marked truncated. Read
  /// inside ``StoreServer/withStore(_:_:)``.
  func changes(after position: LogPosition?, limit: Int?) throws -> DAVChanges<Member>

  /// The `207` answer of `members`, each with what `selection` asks, followed by `tail`: the
  /// other responses and the document's end, written as they are.
  func multistatus(_ members: [Member], _ selection: PropertySelection, then tail: String) throws -> Response
}

/// What changed in a collection after a sync token (RFC 6578 §3).
struct DAVChanges<Member: Sendable>: Sendable {
  /// The members added or changed, as they are now.
  var members: [Member]
  /// The names of the members removed.
  var removed: [String]
  /// The position the changes reach: the next sync token's.
  var position: LogPosition
  /// Whether members were left out (`DAV:limit`): the next token then skips nothing.
  var isTruncated: Bool
}
