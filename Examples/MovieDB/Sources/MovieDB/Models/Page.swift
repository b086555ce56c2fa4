/// One page of a TMDB list (`movie/popular`, `search/movie`, …).
///
/// "One odd movie must not fail a page": `results` is decoded element by element, and an element
/// that does not decode as `Item` is left out of ``results`` and counted in ``skippedResults``,
/// so the rest of the page still shows and nothing is dropped silently. A page whose own fields
/// (`page`, `total_pages`, …) are missing still fails to decode: then nothing is trustworthy.
public struct Page<Item: Decodable & Sendable>: Sendable {
    /// The page number, from 1.
    public let page: Int
    /// The items that decoded, in the server's order.
    public let results: [Item]
    /// How many pages the list has.
    public let totalPages: Int
    /// How many items the whole list has.
    public let totalResults: Int
    /// How many elements of this page's `results` did not decode and are not in ``results``.
    public let skippedResults: Int

    /// Creates a page.
    public init(page: Int, results: [Item], totalPages: Int, totalResults: Int, skippedResults: Int = 0) {
        self.page = page
        self.results = results
        self.totalPages = totalPages
        self.totalResults = totalResults
        self.skippedResults = skippedResults
    }
}

extension Page: Decodable {
    private enum CodingKeys: String, CodingKey {
        case page, results, totalPages, totalResults, skippedResults
    }

    /// Decodes a page, skipping and counting the results that do not decode.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        page = try container.decode(Int.self, forKey: .page)
        totalPages = try container.decode(Int.self, forKey: .totalPages)
        totalResults = try container.decode(Int.self, forKey: .totalResults)

        var elements = try container.nestedUnkeyedContainer(forKey: .results)
        var decoded: [Item] = []
        var skipped = 0
        while !elements.isAtEnd {
            if try elements.decodeNil() {
                skipped += 1
            } else if let item = try? elements.decode(Item.self) {
                decoded.append(item)
            } else {
                // A failed decode does not move the container on; consume the element explicitly.
                _ = try elements.decode(SkippedElement.self)
                skipped += 1
            }
        }
        results = decoded
        skippedResults = skipped
    }
}

extension Page: Encodable where Item: Encodable {
    /// Encodes the page in TMDB's shape, plus `skipped_results`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(page, forKey: .page)
        try container.encode(results, forKey: .results)
        try container.encode(totalPages, forKey: .totalPages)
        try container.encode(totalResults, forKey: .totalResults)
        try container.encode(skippedResults, forKey: .skippedResults)
    }
}

extension Page: Equatable where Item: Equatable {}

/// Any JSON value, read and thrown away.
private struct SkippedElement: Decodable {
    init(from decoder: any Decoder) throws {}
}
