extension Array where Element == any CodingKey {
    /// The path as people write it: `"results.[3].title"`; empty at the top level.
    package var dottedPath: String {
        map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
