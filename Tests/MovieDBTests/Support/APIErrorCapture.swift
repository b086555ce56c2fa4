import MovieDB
import NetworkLayer

/// The `APIError` that `operation` throws, or `nil` when it succeeds.
func apiError<T>(_ operation: () async throws(APIError) -> T) async -> APIError? {
    do {
        _ = try await operation()
        return nil
    } catch {
        return error
    }
}
