import ArgumentParser
import KalendsFormats

// The shared text forms, as the commands' option values.

extension SpanArgument: ExpressibleByArgument {}
extension ContactTypeArgument: ExpressibleByArgument {}
extension EventAvailabilityName: ExpressibleByArgument {}
extension EventStatusName: ExpressibleByArgument {}
