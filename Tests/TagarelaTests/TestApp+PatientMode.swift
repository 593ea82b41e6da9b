import Foundation
@testable import Tagarela

extension TestApp {
    /// A tutor's browser handed to a child: the tutor logs in and enters patient mode for them.
    func patientMode(of patient: String, openedBy tutor: String) throws -> Browser {
        let browser = try self.browser(loggedInAs: tutor)
        _ = try browser.post("/patients/\(try id(of: patient))/patient-mode")
        return browser
    }
}
