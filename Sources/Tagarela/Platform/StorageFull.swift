import Foundation
import GRDB
import HTTPServer
import Mustache

/// A full disk. SQLite refuses the write (SQLITE_FULL) and rolls the transaction back, so nothing
/// already stored is touched; the user gets a page that says so in their language, with what they
/// typed and a button that sends it again once there is room (status 507, not a 500).
enum StorageFull {
    /// Whether `error` means "no space left": SQLite's SQLITE_FULL, or ENOSPC from a file write. Pure.
    static func matches(_ error: any Error) -> Bool {
        if let error = error as? DatabaseError { return error.resultCode == .SQLITE_FULL }
        if isOutOfSpace(error) { return true }
        return ((error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error).map(matches) ?? false
    }

    /// The form's fields to send again: all but the CSRF token (the page prints the current one)
    /// and passwords, which are never echoed into a page. Pure.
    static func resendableFields(_ form: Parameters) -> [(name: String, value: String)] {
        form.pairs.filter { $0.name != "_csrf" && !$0.name.lowercased().contains("password") }
    }

    /// What a person typed, as opposed to ids and choices the form carried: any value with a letter. Pure.
    static func typedText(_ fields: [(name: String, value: String)]) -> String {
        fields.map(\.value).filter { value in value.contains { $0.isLetter } }.joined(separator: "\n\n")
    }

    static func page(_ context: RequestContext) -> Reply {
        let request = context.request
        let fields = request.method == .post ? resendableFields(request.form) : []
        let page = StorageFullPage(
            action: request.method == .post ? request.path : nil,
            fields: fields.map { StorageFullPage.Field(name: $0.name, value: $0.value) },
            typed: typedText(fields))
        return .page("errors/storage-full", title: "faults_full_title", page, status: .insufficientStorage)
    }
}

struct StorageFullPage: PageModel, MustacheParent {
    struct Field: PageModel {
        let name: String
        let value: String
    }
    /// Where "try again" posts the same fields; nil for a GET (a reload is the retry).
    let action: String?
    let fields: [Field]
    let typed: String

    func child(named name: String) -> Any? {
        switch name {
        case "action": action
        case "fields": fields
        case "typed": typed.isEmpty ? nil : typed
        default: nil
        }
    }
}
