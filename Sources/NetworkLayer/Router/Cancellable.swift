/// A handle to one request, returned by ``Router/request(_:completion:)``.
///
/// ```swift
/// let handle = router.request(.popular(page: 1)) { result in … }
/// handle.cancel()   // the completion runs once, with NetworkError.cancelled
/// ```
public protocol Cancellable: Sendable {
    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { get }

    /// Stops the request. If it has not completed yet, its completion runs once with
    /// ``NetworkError/cancelled`` and the transfer stops. Calling it again, or after completion,
    /// does nothing.
    func cancel()
}
