import ArgumentParser
import Kalends
import KalendsFormats

extension Kalends.Reminder {
  /// Sets the start as typed to `--start`, placed as `--due` is (`Reminder.placeStart(_:in:)`);
  /// written unlike the due date (a date beside a time, another zone) is a usage error (exit 64).
  mutating func setStart(_ argument: DateArgument, in zone: ZoneRules?) throws {
    guard try placeStart(argument, in: zone) else {
      throw ValidationError("--start is written as --due is: both dates, or both times in the same zone")
    }
  }
}
