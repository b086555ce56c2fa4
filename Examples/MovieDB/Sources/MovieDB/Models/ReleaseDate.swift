/// Reading TMDB's `YYYY-MM-DD` dates, shared by the models.
enum ReleaseDate {
    /// The year of `"1999-10-15"`; `nil` for `""` or anything without four leading digits.
    static func year(of date: String) -> Int? {
        let prefix = date.prefix(4)
        guard prefix.count == 4, prefix.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(prefix)
    }
}
