import Foundation
import GRDB
import HTTPServer

/// Replacing the voice of a word or letter the clinician added: a new recording (ffmpeg on the media
/// pool, before the write, only when a file came) or back to the generated voice (no work at all).
enum EduCATClipRoutes {
    static func add(to router: inout Router<Route>) {
        router.add(EduCATEndpoints.replaceClip) { $0.slow(.media, whenUploaded: "audio", prepare).write(replace) }
    }

    enum Prepared: Sendable {
        case recorded(String)
        case generated
        case refused(String)
    }

    @Sendable static func prepare(_ context: RequestContext, _ patientId: Int64, _ itemId: Int64) throws -> Step<Prepared> {
        if let upload = context.request.file(named: "audio"), upload.size > 0 {
            do { return .next(.recorded(try context.speech.normalise(recordingAt: upload.temporaryPath))) } catch {
                return .next(.refused(context.t["ep_error_audio"]))
            }
        }
        return .next(context.request.form["voice"] == "generated" ? .generated : .refused(context.t["ep_error_audio_missing"]))
    }

    @Sendable static func replace(_ context: RequestContext, _ db: Database, _ prepared: Prepared, _ patientId: Int64,
                                  _ itemId: Int64) throws -> Reply {
        let recording: String? = if case .recorded(let name) = prepared { name } else { nil }
        do {
            let actor = try context.requireActor()
            let patient = try PatientScope.find(patientId, visibleTo: actor, db)
            guard let item = try EduCATStore.spokenText(ofItem: itemId, patientId: patient.userId, db) else { throw AppError.notFound }
            func refuse(_ message: String) throws -> Reply {
                EduCATRoutes.settingsPage(try EduCATQueries.settings(patientId: patient.userId, visibleTo: actor,
                                                                     interface: context.locale.rawValue, db),
                                          form: nil, itemForm: nil, clipError: (itemId, message), status: .unprocessableContent,
                                          context: context)
            }
            let clip: String
            switch prepared {
            case .refused(let message): return try refuse(message)
            case .recorded(let name): clip = name
            case .generated:
                let content = try EduCATContent.shared(resourcesDirectory: context.configuration.resourcesDirectory)
                // Made when the item was added; a file check, no synthesis inside the transaction.
                guard let generated = context.speech.existing(text: item.spoken, voice: content.pack(item.language).voice) else {
                    return try refuse(context.t["educat_error_clip"])
                }
                clip = generated
            }
            guard let old = try EduCATStore.setClip(clip, ofItem: itemId, patientId: patient.userId, audit: context.audit, db) else {
                throw AppError.notFound
            }
            if old != clip { EduCATClips.discard(old, context.speech) }
            return .redirect(to: EduCATEndpoints.settings.path(patient.userId), flash: "ep_item_clip_saved")
        } catch {
            if let recording { EduCATClips.discard(recording, context.speech) }
            throw error
        }
    }
}
