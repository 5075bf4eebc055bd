"""``manage.py purge_reports``: delete the stored files of reports past their retention.

Without arguments every file past its retention is deleted (what the daily beat schedule
runs); with report ids, those reports only, each refused while still within retention.
``--dry-run`` lists what would be deleted. The request rows stay, with their checksums.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from cardroom.clock import today
from reports import services
from reports.models import ReportRequest, RetentionError


class Command(BaseCommand):
    help = "Delete the stored files of compliance reports whose retention period has passed."

    def add_arguments(self, parser):
        parser.add_argument("report_ids", nargs="*", type=int, help="only these reports")
        parser.add_argument("--dry-run", action="store_true", help="list, delete nothing")

    def handle(self, *args, report_ids: list[int], dry_run: bool, **options):
        if not report_ids:
            expired = list(services.expired_reports().values_list("pk", flat=True))
            if dry_run:
                self.stdout.write(f"{len(expired)} report file(s) past retention: {expired}")
                return
            purged = services.purge_expired_reports()
            self.stdout.write(f"{len(purged)} report file(s) past retention deleted: {purged}")
            return
        refused = []
        for report_id in report_ids:
            try:
                if dry_run:
                    report = ReportRequest.objects.get(pk=report_id)
                    if refusal := report.retention_refusal(today()):
                        raise refusal
                    self.stdout.write(f"report {report_id}: would be deleted")
                    continue
                services.purge_report_file(report_id=report_id)
                self.stdout.write(f"report {report_id}: file deleted")
            except ReportRequest.DoesNotExist:
                refused.append(f"no report {report_id}")
            except RetentionError as error:
                refused.append(str(error))
        for reason in refused:
            self.stderr.write(f"REFUSED {reason}")
        if refused:
            raise CommandError(f"{len(refused)} report(s) not purged")
