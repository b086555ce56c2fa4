/// How the package's errors show what they are about.
package enum ErrorText {
    /// `text`, a URL or a path, as an error may show it: without user info, query or fragment,
    /// which may hold a password, an API key or a token. `"search?api_key=k#top"` is shown as
    /// `"search?…"`, `"https://alice:pw@h.example/x"` as `"https://h.example/x"`.
    package static func url(_ text: String) -> String {
        var shown = text
        if let cut = shown.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            shown = shown[...cut] + "…"
        }
        if let scheme = shown.range(of: "://") {
            let authorityEnd = shown[scheme.upperBound...].firstIndex(of: "/") ?? shown.endIndex
            if let at = shown[scheme.upperBound..<authorityEnd].lastIndex(of: "@") {
                shown.removeSubrange(scheme.upperBound...at)
            }
        }
        return shown
    }
}
