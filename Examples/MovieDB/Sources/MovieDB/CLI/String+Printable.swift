extension String {
    /// The text with control characters (newlines, tabs, escape sequences) replaced by spaces.
    ///
    /// Titles and overviews come from a server: a newline would break a table row, and an
    /// escape sequence would be obeyed by the user's terminal.
    var printable: String {
        String(
            String.UnicodeScalarView(
                unicodeScalars.map {
                    $0.properties.generalCategory == .control ? " " : $0
                }))
    }
}
