"""The record as HL7 FHIR R4 (issue 47): every demo patient exported by each clinician and trainer who
may see them, each Bundle validated by the maintained `fhir.resources` models (R4B, whose resources
used here are R4's), the codes and units checked against the database, the export audited. No
browser: plain HTTP against the real binary."""
import html
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from fhir.resources.R4B.bundle import Bundle
from fhir.resources.R4B import get_fhir_model_class

from test_accounts import click_and_wait
from conftest import BINARY, ROOT, RunningServer, screenshot
from test_faults import Client, query

LOINC = "http://loinc.org"
UCUM = "http://unitsofmeasure.org"


@pytest.fixture
def demo(data_dir):
    running = RunningServer(data_dir, demo=True)
    yield running
    running.stop()


def export(client, patient_id, **period):
    suffix = "?" + "&".join(f"{k}={v}" for k, v in period.items()) if period else ""
    return client.request("GET", f"/patients/{patient_id}/fhir/bundle.json{suffix}")


def validated(body):
    """The Bundle and each of its resources through fhir.resources' models; returns the parsed JSON."""
    data = json.loads(body)
    Bundle.model_validate(data)
    for entry in data["entry"]:
        resource = entry["resource"]
        get_fhir_model_class(resource["resourceType"]).model_validate(resource)
        assert entry["fullUrl"].endswith(f"/fhir/r4/{resource['resourceType']}/{resource['id']}")
    return data


def resources(bundle, kind):
    return [entry["resource"] for entry in bundle["entry"] if entry["resource"]["resourceType"] == kind]


def codes(resource):
    return {(coding["system"], coding["code"]) for coding in resource["code"]["coding"]}


def test_every_demo_patient_exports_a_valid_bundle_for_each_person_who_may_see_them(demo, data_dir):
    staff = {username: Client(demo).log_in(username) for username in ("ana", "nadia", "dani")}
    links = query(data_dir, """
        SELECT user.username, link.patientId FROM clinicianPatient AS link JOIN user ON user.id = link.clinicianId
        UNION SELECT user.username, link.patientId FROM trainerClient AS link JOIN user ON user.id = link.trainerId""")
    links = [(username, patient) for username, patient in links if username in staff]
    assert len(links) >= 4, links
    exported = 0
    for username, patient_id in links:
        status, body, headers = export(staff[username], patient_id)
        assert status == 200, (username, patient_id, body[:300])
        assert headers["Content-Type"].startswith("application/fhir+json")
        assert "attachment" in headers["Content-Disposition"]
        bundle = validated(body)
        exported += 1
        assert bundle["type"] == "collection"
        [patient] = resources(bundle, "Patient")
        assert patient["id"] == str(patient_id)
        assert patient["identifier"][0]["value"] == str(patient_id)
        for observation in resources(bundle, "Observation"):
            assert observation["subject"]["reference"] == f"Patient/{patient_id}"
            if "valueQuantity" in observation:
                assert observation["valueQuantity"]["system"] == UCUM
        evaluations = query(data_dir, "SELECT id, weightGrams, heightMm, takenOn FROM evaluation WHERE patientId = ?", (patient_id,))
        weights = [o for o in resources(bundle, "Observation") if (LOINC, "29463-7") in codes(o)]
        if username in ("dani", "nadia"):
            for evaluation_id, grams, height_mm, taken_on in evaluations:
                [weight] = [o for o in weights if o["id"] == f"eval-{evaluation_id}-weight"]
                assert weight["valueQuantity"]["value"] == pytest.approx(grams / 1000)
                assert weight["valueQuantity"]["code"] == "kg"
                assert weight["effectiveDateTime"] == taken_on
                [height] = [o for o in resources(bundle, "Observation") if o["id"] == f"eval-{evaluation_id}-height"]
                assert (LOINC, "8302-2") in codes(height) and height["valueQuantity"]["value"] == pytest.approx(height_mm / 10)
                fat = [o for o in resources(bundle, "Observation") if o["id"] == f"eval-{evaluation_id}-percent-fat"]
                if fat:
                    assert (LOINC, "41982-0") in codes(fat[0]) and fat[0]["valueQuantity"]["code"] == "%"
                    assert "Siri" in fat[0]["method"]["text"], "the protocol is stated"
        else:
            assert not weights, "a speech therapist's export holds no body composition"
        if username == "nadia":
            meals = query(data_dir, "SELECT count(*) FROM meal WHERE patientId = ?", (patient_id,))[0][0]
            assert len(resources(bundle, "NutritionOrder")) == meals
            answered = query(data_dir, "SELECT count(*) FROM meal WHERE patientId = ? AND status <> 'pending'", (patient_id,))[0][0]
            assert len([o for o in resources(bundle, "Observation") if o["id"].startswith("checkin-")]) == answered
        else:
            assert not resources(bundle, "NutritionOrder")
        if username == "ana":
            games = query(data_dir, "SELECT count(*) FROM educatResult WHERE patientId = ?", (patient_id,))[0][0]
            assert len([o for o in resources(bundle, "Observation") if o["id"].startswith("educat-")]) == games
            taps = query(data_dir, "SELECT coalesce(sum(n), 0) FROM tapDayTotal WHERE patientId = ?", (patient_id,))[0][0]
            assert sum(o["valueQuantity"]["value"] for o in resources(bundle, "Observation") if o["id"].startswith("taps-")) == taps
        goals = resources(bundle, "Goal")
        if goals:
            [plan] = resources(bundle, "CarePlan")
            assert {ref["reference"] for ref in plan["goal"]} == {f"Goal/{goal['id']}" for goal in goals}
        if username == "dani":
            assert all(goal["category"][0]["coding"][0]["code"] == "goal-area-bodyComposition" for goal in goals)
            assert not resources(bundle, "RelatedPerson"), "a trainer is not told who the child's tutors are"
        audits = query(data_dir, """SELECT count(*) FROM auditEntry JOIN user ON user.id = auditEntry.actorId
            WHERE user.username = ? AND action = 'export' AND entity = 'patient' AND entityId = ? AND summary LIKE 'FHIR bundle%'""",
                       (username, patient_id))[0][0]
        assert audits == 1
    assert exported == len(links)


def test_every_export_of_the_generated_clinic_of_bench_mixed_is_valid():
    """bench/mixed's clinic (bench/clinic.py: clinicians, a worklist clinician, trainers, tutors, boards, taps,
    meals, evaluations) at a small size: every care link's export validated by fhir.resources, through
    bench/fhir's own loop (which does the same at bench/mixed's size)."""
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "fhir"), "--validate-only", "--patients", "40",
                             "--heavy-taps", "5000", "--meals", "800", "--evaluations", "200", "--worklist-patients", "20"],
                            capture_output=True, text=True, timeout=900, env={**os.environ, "TAGARELA_BIN": BINARY})
    assert result.returncode == 0, result.stdout[-1000:] + result.stderr[-3000:]
    found = re.search(r"(\d+) exports of (\d+) care links validated by fhir.resources \((\d+) resources\)", result.stdout)
    assert found, result.stdout
    exports, links, resources = map(int, found.groups())
    assert exports == links and links >= 60 and resources > 40 * exports, result.stdout


def test_the_export_keeps_to_its_period_and_refuses_a_bad_one_in_the_users_language(demo, data_dir):
    nadia = Client(demo).log_in("nadia")
    patient_id = query(data_dir, """SELECT patientId FROM meal GROUP BY patientId ORDER BY count(*) DESC LIMIT 1""")[0][0]
    days = sorted(row[0] for row in query(data_dir, "SELECT DISTINCT date FROM meal WHERE patientId = ?", (patient_id,)))
    assert len(days) >= 2
    status, body, _ = export(nadia, patient_id, **{"from": days[-1], "to": days[-1]})
    assert status == 200
    bundle = validated(body)
    orders = resources(bundle, "NutritionOrder")
    assert orders and all(order["dateTime"] == days[-1] for order in orders)
    for observation in resources(bundle, "Observation"):
        assert observation["effectiveDateTime"][:10] >= days[-1] or observation["id"].startswith("checkin-")

    status, body, _ = export(nadia, patient_id, **{"from": "2026-02-30"})
    assert status == 422 and "2026-01-31" in body and "field-error" in body
    status, body, _ = export(nadia, patient_id, **{"from": "2026-05-01", "to": "2026-04-01"})
    assert status == 422 and "fim" in body, "nadia reads Portuguese"
    before = query(data_dir, "SELECT count(*) FROM auditEntry WHERE action = 'export'")[0][0]
    assert before == 1, "a refused period exports nothing and audits nothing"


def test_nobody_else_gets_the_record(demo, data_dir):
    ana = Client(demo).log_in("ana")
    dani = Client(demo).log_in("dani")
    bruno = Client(demo).log_in("bruno")
    not_anas = query(data_dir, """SELECT userId FROM patient WHERE userId NOT IN
        (SELECT patientId FROM clinicianPatient WHERE clinicianId = (SELECT id FROM user WHERE username = 'ana'))""")
    assert not_anas
    assert export(ana, not_anas[0][0])[0] == 404
    not_danis = query(data_dir, """SELECT userId FROM patient WHERE userId NOT IN
        (SELECT patientId FROM trainerClient WHERE trainerId = (SELECT id FROM user WHERE username = 'dani'))""")
    assert export(dani, not_danis[0][0])[0] == 404
    brunos = query(data_dir, "SELECT patientId FROM tutorPatient WHERE tutorId = (SELECT id FROM user WHERE username = 'bruno')")
    assert export(bruno, brunos[0][0])[0] == 403
    assert query(data_dir, "SELECT count(*) FROM auditEntry WHERE action = 'export'")[0][0] == 0


def test_the_export_page_is_reached_from_the_patient_and_the_client(demo, data_dir):
    ana = Client(demo).log_in("ana")
    patient_id = query(data_dir, """SELECT patientId FROM clinicianPatient WHERE clinicianId = (SELECT id FROM user WHERE username = 'ana')""")[0][0]
    status, body, _ = ana.get(f"/patients/{patient_id}")
    assert status == 200 and f'href="/patients/{patient_id}/fhir"' in body
    status, body, _ = ana.get(f"/patients/{patient_id}/fhir")
    assert status == 200 and f'action="/patients/{patient_id}/fhir/bundle.json"' in body
    dani = Client(demo).log_in("dani")
    client_id = query(data_dir, "SELECT patientId FROM trainerClient WHERE trainerId = (SELECT id FROM user WHERE username = 'dani')")[0][0]
    status, body, _ = dani.get(f"/clients/{client_id}")
    assert status == 200 and f'href="/patients/{client_id}/fhir"' in body


# MARK: - Import (step 2)

IMPORTED_CODES = {(LOINC, "29463-7"), (LOINC, "8302-2"), (LOINC, "39156-5"), (LOINC, "41982-0"), (LOINC, "8280-0")}


def upload(client, patient_id, content, name="bundle.json"):
    """The import preview's form: the file as multipart, with the session's CSRF token."""
    boundary = "----tagarela-fhir-test"
    if isinstance(content, str):
        content = content.encode()
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\n{client.csrf}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
            f"Content-Type: application/fhir+json\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(client.url + f"/patients/{patient_id}/fhir/import/preview", data=body, method="POST",
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    try:
        with client.opener.open(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def save(client, page_body, patient_id):
    """Posts the preview's form as the browser would: the measurements it carries."""
    measurements = html.unescape(re.search(r'name="measurements" value="([^"]*)"', page_body).group(1))
    return client.post(f"/patients/{patient_id}/fhir/import", [("measurements", measurements)])


def stored(data_dir, patient_id):
    return query(data_dir, "SELECT kind, value, unit, effective FROM fhirMeasurement WHERE patientId = ? ORDER BY effective, kind",
                 (patient_id,))


def busiest_client(data_dir):
    return query(data_dir, """SELECT patientId FROM evaluation WHERE trainerId = (SELECT id FROM user WHERE username = 'dani')
        GROUP BY patientId ORDER BY count(*) DESC LIMIT 1""")[0][0]


def test_a_clients_evaluations_travel_to_another_server_unchanged_and_only_once(tmp_path):
    first_dir, second_dir = str(tmp_path / "first"), str(tmp_path / "second")
    os.makedirs(first_dir), os.makedirs(second_dir)
    first, second = RunningServer(first_dir, demo=True), RunningServer(second_dir, demo=True)
    try:
        client_id = busiest_client(first_dir)
        status, body, _ = export(Client(first).log_in("dani"), client_id)
        assert status == 200
        sent = validated(body)
        # Everything an evaluation measured or computed: weight, height, BMI, skinfolds, perimeters, % fat…
        measured = [o for o in resources(sent, "Observation") if o["id"].startswith("eval-")]
        assert len(measured) > 20 and {c for o in measured for c in codes(o)} >= IMPORTED_CODES

        dani = Client(second).log_in("dani")
        dani.get(f"/patients/{client_id}/fhir")
        status, page = upload(dani, client_id, body)
        assert status == 200, page[:500]
        assert page.count("<tr><td>") == len(measured), "each measurement of the file is shown before it is stored"
        assert stored(second_dir, client_id) == [], "the preview stores nothing"
        status, _, headers = save(dani, page, client_id)
        assert status == 303
        rows = stored(second_dir, client_id)
        assert len(rows) == len(measured)

        # The second server's export says the same: codes, values, units and dates.
        status, body, _ = export(dani, client_id)
        back = [o for o in resources(validated(body), "Observation") if o["id"].startswith("imported-")]
        assert len(back) == len(measured)
        def key(o):
            return (sorted(codes(o))[0], o["effectiveDateTime"], o["valueQuantity"]["value"], o["valueQuantity"]["code"])
        assert sorted(map(key, back)) == sorted(map(key, measured))
        assert {o["identifier"][0]["value"] for o in back} == {o["identifier"][0]["value"] for o in measured}

        # The same file again: nothing new, nothing stored.
        status, page = upload(dani, client_id, json.dumps(sent))
        assert status == 200 and 'id="nothing-new"' in page and 'name="measurements" value="[]"' in page
        status, _, _ = save(dani, page, client_id)
        assert status == 303 and len(stored(second_dir, client_id)) == len(measured)
        audits = query(second_dir, "SELECT count(*) FROM auditEntry WHERE entity = 'fhirMeasurement' AND action = 'create'")[0][0]
        assert audits == 1
    finally:
        first.stop()
        second.stop()


def bundle_for(patient_id, *observations, patient=None):
    entries = [{"fullUrl": f"http://other.example/fhir/Patient/{patient_id}",
                "resource": patient or {"resourceType": "Patient", "id": str(patient_id)}}]
    for index, observation in enumerate(observations):
        resource = {"resourceType": "Observation", "id": f"o{index}", "status": "final",
                    "subject": {"reference": f"Patient/{patient_id}"}, "effectiveDateTime": f"2026-10-{index + 1:02d}"}
        resource.update(observation)
        entries.append({"fullUrl": f"http://other.example/fhir/Observation/o{index}", "resource": resource})
    return json.dumps({"resourceType": "Bundle", "type": "collection", "entry": entries})


def weight(value, unit="kg"):
    return {"code": {"coding": [{"system": LOINC, "code": "29463-7"}]},
            "valueQuantity": {"value": value, "unit": unit, "system": UCUM, "code": unit}}


def test_hostile_or_wrong_files_are_refused_clearly_and_store_nothing(demo, data_dir):
    dani = Client(demo).log_in("dani")
    client_id = busiest_client(data_dir)
    dani.get(f"/patients/{client_id}/fhir")

    # Whole files refused, in Portuguese (dani's language), the form shown again.
    for content, words in [
        ("[" * 100000, "aninhado"),
        ("{not json", "não é um arquivo FHIR JSON"),
        (json.dumps({"resourceType": "Patient"}), "não é um Bundle"),
        (bundle_for(client_id, dict(weight(70), subject={"reference": "Patient/9999"})), "outra pessoa"),
        (bundle_for(client_id, weight(70), patient={"resourceType": "Patient", "id": "3",
                                                   "identifier": [{"system": f"http://localhost:{demo.port}/fhir/sid/patient", "value": "3"}]}), "outra pessoa"),
        ('{"resourceType": "Bundle", "entry": [{"resource": {"resourceType": "Observation", "valueQuantity": {"value": 1e400}}}]}',
         "arquivo"),
        ("", "escolha um arquivo"),
    ]:
        status, page = upload(dani, client_id, content)
        assert status == 422, (content[:80], status, page[:300])
        assert words in page and 'role="alert"' in page, content[:80]

    # Entries refused one by one, each named with its reason; the good one may be stored.
    status, page = upload(dani, client_id, bundle_for(
        client_id, weight(1e300), weight(70, "cm"), weight(7.2e4, "g"),
        {"code": {"coding": [{"system": LOINC, "code": "2339-0", "display": "Glucose"}]}, "valueQuantity": {"value": 90, "code": "mg/dL"}},
        dict(weight(71), status="preliminary"), dict(weight(72), effectiveDateTime="yesterday")))
    assert status == 200
    refused = re.search(r'<ul id="refused-entries">(.*?)</ul>', page, re.S).group(1)
    assert refused.count("<li>") == 5
    assert "Entrada 2" in refused and "não é possível" in refused
    assert "Entrada 3" in refused and "unidade “cm”" in refused
    assert "Glucose" in refused and "não é uma medida" in refused
    assert "preliminary" in refused and "não tem data" in refused
    assert page.count("<tr><td>") == 1 and "72 kg" in page, "72 000 g is 72 kg"
    assert stored(data_dir, client_id) == []

    # A changed form can add nothing a file could not.
    status, body, _ = dani.post(f"/patients/{client_id}/fhir/import", [("measurements", json.dumps(
        [{"kind": "weight", "value": 1e9, "unit": "kg", "effective": "2026-10-01"}]))])
    assert status == 422 and "nada foi guardado" in body
    status, body, _ = dani.post(f"/patients/{client_id}/fhir/import", [("measurements", "[" * 5000)])
    assert status == 422
    assert stored(data_dir, client_id) == []

    # Who may not import: a speech therapist (no body composition), a trainer for someone else's client.
    ana = Client(demo).log_in("ana")
    anas = query(data_dir, "SELECT patientId FROM clinicianPatient WHERE clinicianId = (SELECT id FROM user WHERE username = 'ana')")[0][0]
    ana.get(f"/patients/{anas}/fhir")
    assert upload(ana, anas, bundle_for(anas, weight(30)))[0] == 403
    others = query(data_dir, """SELECT userId FROM patient WHERE userId NOT IN
        (SELECT patientId FROM trainerClient WHERE trainerId = (SELECT id FROM user WHERE username = 'dani'))""")[0][0]
    assert upload(dani, others, bundle_for(others, weight(30)))[0] == 404
    assert query(data_dir, "SELECT count(*) FROM fhirMeasurement")[0][0] == 0


# MARK: - The pages, in a real browser

def test_a_trainer_exports_and_imports_through_the_pages_at_every_size(demo_server, data_dir, page, tmp_path):
    from selenium.webdriver.common.by import By
    from conftest import serious_accessibility_violations, ROOT
    from test_accounts import log_in

    client_id = busiest_client(data_dir)
    log_in(page, demo_server, "dani")
    page.get(demo_server.url + f"/clients/{client_id}")
    page.find_element(By.CSS_SELECTOR, f'a[href="/patients/{client_id}/fhir"]').click()
    assert page.find_element(By.TAG_NAME, "h1").text.startswith("Exportar em FHIR")
    assert serious_accessibility_violations(page) == []

    # A file another system wrote: two weights and a height; one in pounds, one in the wrong unit.
    bundle = tmp_path / "from-the-clinic.json"
    bundle.write_text(bundle_for(client_id, weight(70.5), weight(160, "[lb_av]"),
                                 {"code": {"coding": [{"system": LOINC, "code": "8302-2"}]},
                                  "valueQuantity": {"value": 1.72, "unit": "m", "system": UCUM, "code": "m"}},
                                 weight(70, "cm")))
    page.find_element(By.ID, "file").send_keys(str(bundle))
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "#import-form button[type=submit]"))  # the answer's page, not the old one
    rows = page.find_elements(By.CSS_SELECTOR, "#new-measurements tbody tr")
    assert len(rows) == 3
    assert "172 cm" in page.page_source and "72,6 kg" in page.page_source, "1.72 m and 160 lb, in Portuguese numbers"
    assert "unidade “cm”" in page.find_element(By.ID, "refused-entries").text
    assert serious_accessibility_violations(page) == []
    for width, height in ((360, 740), (768, 1024), (1280, 800)):
        page.set_window_size(width, height)
        screenshot(page, f"fhir-import-preview-{width}x{height}.png")
        assert page.execute_script("return document.documentElement.scrollWidth") <= width, "no sideways scroll"
    page.set_window_size(768, 1024)
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "#import-save button[type=submit]"))  # the answer's page, not the old one
    assert page.current_url.endswith(f"/patients/{client_id}/fhir")
    assert len(page.find_elements(By.CSS_SELECTOR, "#imported-title + .table-wrap tbody tr")) == 3
    assert len(stored(data_dir, client_id)) == 3
    for width, height in ((360, 740), (768, 1024), (1280, 800)):
        page.set_window_size(width, height)
        screenshot(page, f"fhir-export-{width}x{height}.png")

    # The client's page: the imported measurements listed and drawn beside the evaluations, marked as imported.
    page.get(demo_server.url + f"/clients/{client_id}")
    rows = page.find_elements(By.CSS_SELECTOR, "#imported-measurements tbody tr")
    assert len(rows) == 3
    assert all("(FHIR)" in row.text and "importad" in row.text for row in rows), [row.text for row in rows]
    assert "Peso, importado" in page.page_source, "the weight chart's imported series"
    assert serious_accessibility_violations(page) == []
    for width, height in ((360, 740), (768, 1024), (1280, 800)):
        page.set_window_size(width, height)
        screenshot(page, f"fhir-client-imported-{width}x{height}.png")
        assert page.execute_script("return document.documentElement.scrollWidth") <= width, "no sideways scroll"
