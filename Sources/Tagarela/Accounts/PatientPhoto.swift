import Foundation
import GRDB

/// The photo a patient form sent, converted by ffmpeg and stored before the write opens (it is slow,
/// and no transaction may wait on it), or the reason it was refused. No file chosen: neither.
struct UploadedPhoto: Sendable {
    var path: String?
    var problem: String?

    /// The form's `photo` field, stored. Runs on the media pool (`write(preparing: .media)`).
    static func store(_ context: RequestContext) throws -> UploadedPhoto {
        guard let upload = context.request.file(named: "photo"), upload.size > 0 else { return UploadedPhoto() }
        do {
            return UploadedPhoto(path: try context.media.storePhoto(upload))
        } catch let failure as MediaStore.Failure {
            return UploadedPhoto(problem: failure.message(context.t, context.format))
        }
    }

    /// What a patient write did with the photo.
    enum Outcome {
        /// Nothing saved (the form is shown again): the new file is not kept.
        case refused(Reply)
        /// Saved; `replacing` is the photo the patient had, removed once the write is committed.
        case saved(Reply, replacing: String?)
    }

    /// Runs `save`, the handler's write, and keeps the files in step with it: the new photo goes if the
    /// write is refused, throws or rolls back; the photo it replaced goes only once it is committed.
    func keepingFiles(_ media: MediaStore, _ db: Database, _ save: () throws -> Outcome) throws -> Reply {
        let outcome: Outcome
        do { outcome = try save() } catch { media.remove(path); throw error }
        switch outcome {
        case .refused(let reply):
            media.remove(path)
            return reply
        case .saved(let reply, let previous):
            let (new, replaced) = (path, path == nil ? nil : previous)
            db.afterNextTransaction(onCommit: { _ in media.remove(replaced) }, onRollback: { _ in media.remove(new) })
            return reply
        }
    }
}
