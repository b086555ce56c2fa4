import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A realistic parameter set: 20 keys, nested dictionaries and arrays, unicode, reserved characters.
let realisticParameters: Parameters = [
    "api_key": "0123456789abcdef0123456789abcdef", "language": "fr-FR", "page": 3, "region": "FR",
    "include_adult": false, "include_video": true, "sort_by": "popularity.desc",
    "query": "Amélie & the 東京 story 🎬", "year": 2001, "vote_average.gte": 7.5,
    "with_genres": [18, 35, 10749], "without_keywords": ["remake", "sequel"],
    "with_release_type": "2|3", "certification": "PG-13", "with_runtime.lte": 140,
    "filter": ["min": 1, "max": 10, "tag": "a+b=c"] as Parameters,
    "session": ["id": "s-42", "flags": ["x", "y"]] as Parameters,
    "callback": "https://example.com/cb?x=1&y=2", "note": String(repeating: "long text ", count: 8),
    "ratio": 0.125,
]

/// What a user writes without a library: flatten to URLQueryItems, let URLComponents escape.
/// (It is also less correct: URLComponents leaves `+`, `&` inside values... in some versions.)
func naiveQuery(_ parameters: Parameters) -> String? {
    func items(_ key: String, _ value: Any) -> [URLQueryItem] {
        if let dictionary = value as? [String: Any] {
            return dictionary.keys.sorted().flatMap { items("\(key)[\($0)]", dictionary[$0] as Any) }
        }
        if let array = value as? [Any] {
            return array.flatMap { items("\(key)[]", $0) }
        }
        return [URLQueryItem(name: key, value: "\(value)")]
    }
    var components = URLComponents(string: "https://api.example.com/3/discover/movie")
    components?.queryItems = parameters.keys.sorted().flatMap { items($0, parameters[$0] as Any) }
    return components?.url?.absoluteString
}

func runEncodingBenchmarks() throws {
    print("\n## Encoding (\(realisticParameters.count) keys, nested, unicode)")
    let iterations = 20_000
    guard let url = URL(string: "https://api.example.com/3/discover/movie") else { return }
    let encoder = URLParameterEncoder()

    let ours = try measure(iterations: iterations) {
        var request = URLRequest(url: url)
        try encoder.encode(urlRequest: &request, with: realisticParameters)
    }
    let naive = measure(iterations: iterations) {
        _ = naiveQuery(realisticParameters)
    }
    row("URLParameterEncoder into URLRequest", "\(Int(Double(iterations) / ours)) /s")
    row("naive URLComponents/URLQueryItem", "\(Int(Double(iterations) / naive)) /s")
    row("ratio URLParameterEncoder / naive (higher is better)", format(naive / ours) + "x")

    let json = JSONParameterEncoder()
    let jsonParameters = realisticParameters.filter { $0.key != "filter" && $0.key != "session" }
        .merging(["filter": ["min": 1, "max": 10] as Parameters]) { $1 }
    let oursJSON = try measure(iterations: iterations) {
        _ = try json.data(from: jsonParameters)
    }
    let foundationJSON = try measure(iterations: iterations) {
        _ = try JSONSerialization.data(withJSONObject: jsonParameters as [String: Any], options: [.sortedKeys])
    }
    row("JSONParameterEncoder (validating, sorted keys)", "\(Int(Double(iterations) / oursJSON)) /s")
    row("JSONSerialization (sorted keys)", "\(Int(Double(iterations) / foundationJSON)) /s")
    row("ratio JSONParameterEncoder / JSONSerialization", format(foundationJSON / oursJSON) + "x")
}
