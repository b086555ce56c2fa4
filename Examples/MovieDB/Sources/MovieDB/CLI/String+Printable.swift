extension String {
    /// The text with control characters (newlines, tabs, escape sequences), format characters
    /// (a right-to-left override, zero-width spaces) and line separators replaced by spaces.
    ///
    /// Titles and overviews come from a server: a newline would break a table row, an escape
    /// sequence would be obeyed by the user's terminal, and `A\u{202E}gnp.exe` would show as
    /// `Aexe.png`.
    var printable: String {
        String(
            String.UnicodeScalarView(
                unicodeScalars.map {
                    switch $0.properties.generalCategory {
                    case .control, .format, .lineSeparator, .paragraphSeparator: return " "
                    default: return $0
                    }
                }))
    }
}
