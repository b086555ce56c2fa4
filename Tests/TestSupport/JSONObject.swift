import Foundation

/// Parses the JSON object a test server echoed, for assertions on its fields.
public func jsonObject(_ data: Data) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw CocoaError(.propertyListReadCorrupt)
    }
    return object
}
