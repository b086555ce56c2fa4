import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Moya's names for the types that appear in its plugin hooks, declared unavailable so that a
// plugin pasted from Moya fails to compile with a message that leads to the right hooks.
//
// The trap they guard against: a hook with Moya's signature, `prepare(_:target:)`, is a new
// method of the plugin rather than an implementation of `PluginType`'s `prepare(_:context:)`,
// so it compiles and is never called. Swift 6.3 cannot diagnose that method itself: protocol
// requirements can be `unavailable` only in `@objc` protocols; a `deprecated` requirement
// draws no warning when a type implements it; and the "nearly matches defaulted requirement"
// warning appears only for a conformance declared in an extension, and only for names within
// about one edit in four characters (`target:` is too far from `context:`). What the compiler
// does diagnose is a use of an unavailable type, and every Moya hook names `TargetType`.

/// Moya's `TargetType`; here ``EndPointType``. Unavailable, to stop a plugin pasted from Moya.
@available(
    *, unavailable,
    message:
        "Moya's TargetType is EndPointType. In a plugin, write the hooks with 'context: RequestContext' (context.target is the endpoint): a hook with Moya's 'target:' parameter compiles but is never called."
)
public typealias TargetType = EndPointType

/// Moya's `MoyaError`; here ``NetworkError``. Unavailable, to stop a plugin pasted from Moya.
@available(
    *, unavailable,
    message:
        "Moya's MoyaError is NetworkError. Plugin hooks take 'Result<Response, NetworkError>' and 'context: RequestContext': didReceive(_:context:), process(_:context:)."
)
public typealias MoyaError = NetworkError

/// Moya's `RequestType`, given to `willSend`; here the `URLRequest` itself. Unavailable, to stop
/// a plugin pasted from Moya.
@available(
    *, unavailable,
    message: "Moya's RequestType is the URLRequest itself here: implement willSend(_ request: URLRequest, context: RequestContext)."
)
public typealias RequestType = URLRequest

/// Moya's `AccessTokenAuthorizable`; here ``EndPointType/authorizationType`` is a requirement of
/// every endpoint. Unavailable, to point a conformance to it at the requirement.
@available(
    *, unavailable,
    message: "authorizationType is a requirement of EndPointType (default .plugin): drop the conformance and keep 'var authorizationType: AuthorizationType?'."
)
public typealias AccessTokenAuthorizable = EndPointType
