extension Unicode.Scalar {
    /// A character that must not reach a terminal or a log line from outside: a control
    /// character (Cc: ESC starts terminal sequences, a newline splits a log line), a format
    /// character (Cf: bidi overrides such as U+202E reorder what follows, zero-width ones hide
    /// text), or a line or paragraph separator (Zl U+2028, Zp U+2029).
    public var isUnsafeForDisplay: Bool {
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}

extension String {
    /// The text with every `isUnsafeForDisplay` character replaced by "?": for names that come
    /// from the air (a Bluetooth device's) on their way to a terminal or the log.
    public var safeForDisplay: String {
        guard unicodeScalars.contains(where: \.isUnsafeForDisplay) else { return self }
        var scalars = String.UnicodeScalarView()
        for scalar in unicodeScalars { scalars.append(scalar.isUnsafeForDisplay ? "?" : scalar) }
        return String(scalars)
    }
}
